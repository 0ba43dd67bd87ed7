// How close a search hit is (cosine similarity): under SIMILARITY_FLOOR it is noise and not presented as found;
// from SIMILARITY_CLOSE on it is a match; in between, loosely related. The Studio and the echo planner's words share it.
export const SIMILARITY_FLOOR = 0.2;
export const SIMILARITY_CLOSE = 0.35;

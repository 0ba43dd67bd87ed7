// The Studio is a client-rendered app talking to the API on the same origin.
export const ssr = false;
export const prerender = false;

// The answer of the RAG skills until embeddings exist: said plainly, with nothing made up.

export interface NotAvailableYet {
  available: false;
  skill: string;
  message: string;
}

export function notAvailableYet(skill: string, what: string): NotAvailableYet {
  return {
    available: false,
    skill,
    message: `${skill} is not available yet: ${what} needs content embeddings, which a later LumiBase release adds. Nothing was generated.`,
  };
}

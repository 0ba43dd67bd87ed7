// The RAG skills' logic, independent of storage: the aiSuggestField and aiContentAssist executors call these.
export {
  type AssistedItem,
  assistContent,
  type ContentAssistDependencies,
  type ContentAssistInput,
  type ContentAssistResult,
  type ContentSource,
  type SimilarItem,
} from './content-assist.js';
export { CATALOG_COLLECTION, type CatalogField, FIELD_CATALOG } from './field-catalog.js';
export type { JsonModel, JsonModelRequest } from './json-model.js';
export { jsonModelOf, PlannerJsonModel } from './planner-json-model.js';
export { ModelAnswerRejectedError } from './rag-errors.js';
export {
  type FieldSuggestion,
  type SimilarField,
  type SiteField,
  type SuggestFieldDependencies,
  type SuggestFieldInput,
  siteFieldText,
  suggestField,
} from './suggest-field.js';

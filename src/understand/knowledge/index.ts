/** Knowledge files: Markdown split by heading, indexed, searched. */
export {
  KnowledgeBase,
  loadKnowledge,
  trimText,
  DEFAULT_KNOWLEDGE_THRESHOLD,
  type KnowledgeFile,
  type KnowledgeHit,
} from './knowledge-base.js';
export { splitMarkdown, type KnowledgeSection } from './markdown-sections.js';
export { readKnowledgeFiles } from './read-knowledge-files.js';

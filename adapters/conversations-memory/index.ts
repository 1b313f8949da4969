export { DEFAULTS, layer, type MemoryConversationsOptions, make } from "./memory-conversations.ts";

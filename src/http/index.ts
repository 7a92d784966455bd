// The project's HTTP pieces, for its servers (the codec server, the inbox, the MCP server, the
// worker's live endpoint, the scripted model server): import them from here.
export { HttpError } from './http-error';
export { readBody, readJsonBody, type ReadBodyOptions, type ReadJsonBodyOptions } from './read-body';
export { EventStream, formatEvent, type EventStreamOptions, type ServerSentEvent } from './event-stream';
export { normalOrigin, originAllowed, sameOrigin } from './origin';
export { originRefusal, parseAllowedOrigins } from './allowed-origins';
export { isLoopbackHost, loopbackHostHeader } from './loopback';
export { InFlight } from './in-flight';

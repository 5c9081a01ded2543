// Callers read and write through WSCore's types (WebSocketMessage,
// WebSocketInboundStream, WebSocketOutboundWriter, WebSocketCloseFrame), as
// the hub's own sockets do.
@_exported import WSCore

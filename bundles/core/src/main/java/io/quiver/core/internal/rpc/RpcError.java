package io.quiver.core.internal.rpc;

/** The {@code error} member of a JSON-RPC error response. */
public record RpcError(int code, String message, Object data) {
}

package io.quiver.shell.internal;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What {@code quiver:call} prints for a {@code tools/call} response: the text of the content blocks
 * (a one-line summary of other blocks), the structured content as indented JSON, and whether the
 * result is an error; or the JSON-RPC error.
 */
final class CallReport {

    private CallReport() {
    }

    static String format(ShellClient.Answer answer, ObjectMapper json) {
        StringBuilder out = new StringBuilder();
        for (JsonNode log : answer.logMessages()) {
            out.append("[log ").append(log.path("level").asString("info")).append("] ")
                    .append(log.path("data").isString() ? log.path("data").asString() : String.valueOf(log.path("data")))
                    .append('\n');
        }
        JsonNode response = answer.response();
        if (response.has("error")) {
            JsonNode error = response.path("error");
            out.append("error ").append(error.path("code").asInt()).append(": ")
                    .append(error.path("message").asString("")).append('\n');
            if (error.has("data")) {
                out.append(json.writerWithDefaultPrettyPrinter().writeValueAsString(error.get("data"))).append('\n');
            }
            return out.toString();
        }
        JsonNode result = response.path("result");
        for (JsonNode block : result.path("content")) {
            out.append(block(block)).append('\n');
        }
        if (result.has("structuredContent") && !result.get("structuredContent").isNull()) {
            out.append("structuredContent: ")
                    .append(json.writerWithDefaultPrettyPrinter().writeValueAsString(result.get("structuredContent")))
                    .append('\n');
        }
        out.append("isError: ").append(result.path("isError").asBoolean(false)).append('\n');
        return out.toString();
    }

    private static String block(JsonNode block) {
        String type = block.path("type").asString("");
        return switch (type) {
            case "text" -> block.path("text").asString("");
            case "image", "audio" -> "[" + type + " " + block.path("mimeType").asString("?") + ", "
                    + approximateBytes(block.path("data").asString("")) + " bytes]";
            case "resource_link" -> "[resource link " + block.path("uri").asString("") + "]";
            case "resource" -> {
                JsonNode resource = block.path("resource");
                yield resource.has("text") ? resource.path("text").asString("")
                        : "[resource " + resource.path("uri").asString("") + " "
                                + resource.path("mimeType").asString("") + "]";
            }
            default -> "[" + (type.isEmpty() ? "content" : type) + " block]";
        };
    }

    private static long approximateBytes(String base64) {
        return base64.length() / 4L * 3L;
    }
}

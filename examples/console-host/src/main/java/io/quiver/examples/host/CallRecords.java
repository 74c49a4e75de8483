package io.quiver.examples.host;

import io.quiver.launcher.HostRequest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The record file: one JSON line per delivered call, written (and forced to disk) before the host
 * replies {@code recorded}, so the caller never gets a result the file does not hold.
 */
final class CallRecords {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path file;

    private CallRecords(Path file) {
        this.file = file;
    }

    /** Creates the file (and its folder) if missing, so that a file that cannot be written fails the start. */
    static CallRecords open(Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        append(file).close();
        return new CallRecords(file);
    }

    Path file() {
        return file;
    }

    /** Appends the record of a {@link HostRequest.Kind#RECORD} request. */
    void append(HostRequest request) throws IOException {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", Instant.now().toString());
        line.put("invocationId", request.invocationId());
        line.put("tool", request.tool());
        line.put("client", request.client().get("name"));
        line.put("subject", request.subject());
        line.put("requestedArguments", request.requestedArguments());
        line.put("arguments", request.arguments());
        line.put("edited", request.edited());
        line.put("rawResult", request.rawResult());
        line.put("deliveredResult", request.result());
        ByteBuffer bytes = ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
        try (FileChannel channel = append(file)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(false);
        }
    }

    private static FileChannel append(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
}

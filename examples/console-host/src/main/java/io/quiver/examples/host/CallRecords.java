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
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The record file: one JSON line per call the console took part in while it ran. A delivered call's line is
 * written (and forced to disk) before the host replies {@code recorded}, so the caller never gets a result the
 * file does not hold; a call that delivered no result (denied, stopped, cancelled, a recording that failed) gets
 * its line when it is over, with how it ended ({@code ending}) and why ({@code detail}).
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

    /** Appends the record of a {@link HostRequest.Kind#RECORD} request: the result as the tool gave it and as delivered. */
    void append(HostRequest request) throws IOException {
        Map<String, Object> line = call(request);
        line.put("rawResult", request.rawResult());
        line.put("deliveredResult", request.result());
        write(line);
    }

    /** Appends the record of a call that ended without a result to deliver: its {@link HostRequest.Kind#OVER} request. */
    void appendEnded(HostRequest over) throws IOException {
        Map<String, Object> line = call(over);
        line.put("ending", name(over.ending()));
        line.put("detail", over.detail());
        write(line);
    }

    /** An ending as the record file and the console write it: {@code denied}, {@code cancelled}, ... ({@code unknown}: none given). */
    static String name(HostRequest.Ending ending) {
        return ending == null ? "unknown" : ending.name().toLowerCase(Locale.ROOT);
    }

    private static Map<String, Object> call(HostRequest request) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("time", Instant.now().toString());
        line.put("invocationId", request.invocationId());
        line.put("tool", request.tool());
        line.put("client", request.client().get("name"));
        line.put("subject", request.subject());
        line.put("requestedArguments", request.requestedArguments());
        line.put("arguments", request.arguments());
        line.put("edited", request.edited());
        return line;
    }

    private void write(Map<String, Object> line) throws IOException {
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

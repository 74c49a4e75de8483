package io.quiver.lib.external;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Splits a child process's output into lines ({@code \n} or {@code \r\n}, the bytes without them), one
 * line at most so long.
 */
public final class Lines {

    private Lines() {
    }

    /**
     * Reads to the end of the stream, handing each complete line on.
     *
     * @return true at the end of the stream; false when a line grew past {@code maxLineBytes} (reading stops)
     */
    public static boolean read(InputStream in, int maxLineBytes, Consumer<byte[]> each) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (buffer[i] == '\n') {
                    line.write(buffer, start, i - start);
                    if (line.size() > maxLineBytes) {
                        return false;
                    }
                    each.accept(withoutReturn(line.toByteArray()));
                    line.reset();
                    start = i + 1;
                }
            }
            line.write(buffer, start, n - start);
            if (line.size() > maxLineBytes) {
                return false;
            }
        }
        return true;
    }

    private static byte[] withoutReturn(byte[] line) {
        int n = line.length;
        return n > 0 && line[n - 1] == '\r' ? Arrays.copyOf(line, n - 1) : line;
    }
}

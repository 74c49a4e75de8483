package io.quiver.bench.scaling;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import org.osgi.service.component.annotations.Component;

/**
 * Tools answering one text block of a fixed size (ASCII letters and spaces, so the JSON is as long
 * as the text), for the result-size part of bench/scaling.sh. The text is built once; a call only
 * hands it over, so what is measured is the server's serialising and sending.
 */
final class TextTools {

    /** {@code size} bytes of text. */
    static String text(int size) {
        StringBuilder b = new StringBuilder(size);
        String pattern = "the quick brown fox jumps over the lazy dog ";
        while (b.length() < size) {
            b.append(pattern, 0, Math.min(pattern.length(), size - b.length()));
        }
        return b.toString();
    }

    /** 1 KiB. */
    @Component(service = Tool.class)
    @McpTool(name = "bench_text_1k", description = "Answers 1 KiB (1,024 bytes) of text.",
            readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
    public static final class OneKiB implements Tool {
        private final Outcome answer = Outcome.text(text(1 << 10));

        @Override
        public Outcome call(ToolCall call) {
            return answer;
        }
    }

    /** 100 KiB. */
    @Component(service = Tool.class)
    @McpTool(name = "bench_text_100k", description = "Answers 100 KiB (102,400 bytes) of text.",
            readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
    public static final class HundredKiB implements Tool {
        private final Outcome answer = Outcome.text(text(100 << 10));

        @Override
        public Outcome call(ToolCall call) {
            return answer;
        }
    }

    /** 1 MiB: exactly the default maxOutputBytes (which it may reach, not exceed). */
    @Component(service = Tool.class)
    @McpTool(name = "bench_text_1m", description = "Answers 1 MiB (1,048,576 bytes) of text.",
            readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
    public static final class OneMiB implements Tool {
        private final Outcome answer = Outcome.text(text(1 << 20));

        @Override
        public Outcome call(ToolCall call) {
            return answer;
        }
    }

    private TextTools() {
    }
}

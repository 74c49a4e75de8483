package io.quiver.itests.witness;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * {@code witness}: appends its {@code note} and the caller's subject to a file (with {@code sleepMs}: a
 * {@code started} line first, then the wait, so a test knows the call is in progress). A test that must prove a
 * call never ran looks for its note there; the file is named by {@code etc/io.quiver.itests.witness.cfg}.
 */
@Component(service = Tool.class, configurationPid = "io.quiver.itests.witness",
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = WitnessTool.Config.class)
@McpTool(name = "witness", description = "Leaves the note and the caller's subject in the witness file.",
        inputSchema = """
                {"type": "object", "properties": {"note": {"type": "string"},
                 "sleepMs": {"type": "integer", "minimum": 0, "maximum": 60000}}, "required": ["note"]}""")
public final class WitnessTool implements Tool {

    @ObjectClassDefinition(name = "Witness tool (tests)")
    public @interface Config {
        String file();
    }

    private final Path file;

    @Activate
    public WitnessTool(Config config) {
        this.file = Path.of(config.file());
    }

    @Override
    public Outcome call(ToolCall call) throws IOException, InterruptedException {
        Object sleep = call.arguments().get("sleepMs");
        if (sleep instanceof Number ms) {
            write("started " + call.arguments().get("note") + " by " + call.context().caller().subject() + "\n");
            Thread.sleep(ms.longValue());
        }
        write(call.arguments().get("note") + " by " + call.context().caller().subject() + "\n");
        return Outcome.text("witnessed " + call.arguments().get("note") + " by " + call.context().caller().subject());
    }

    private void write(String line) throws IOException {
        synchronized (WitnessTool.class) {
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}

package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ResourceContents;
import org.osgi.service.component.annotations.Component;

/** Returns one embedded text resource. */
@Component(service = Tool.class)
@McpTool(name = "test_embedded_resource", blocking = false, description = "Tests embedded resource content response")
public final class EmbeddedResourceTool implements Tool {

    static final ResourceContents RESOURCE = new ResourceContents.Text(
            "test://embedded-resource", Fixtures.TEXT, "This is an embedded resource content.");

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.done(ToolResult.of(new EmbeddedResource(RESOURCE)));
    }
}

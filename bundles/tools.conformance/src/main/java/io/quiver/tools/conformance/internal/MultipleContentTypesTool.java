package io.quiver.tools.conformance.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.EmbeddedResource;
import io.quiver.api.content.ImageContent;
import io.quiver.api.content.ResourceContents;
import io.quiver.api.content.TextContent;
import org.osgi.service.component.annotations.Component;

/** Returns a text, an image and an embedded JSON resource in one result. */
@Component(service = Tool.class)
@McpTool(name = "test_multiple_content_types", blocking = false,
        description = "Tests response with multiple content types (text, image, resource)")
public final class MultipleContentTypesTool implements Tool {

    /** The reference JSON document, a fixed value. */
    static final String MIXED_JSON = "{\"test\":\"data\",\"value\":123}";

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.done(ToolResult.of(
                new TextContent("Multiple content types test:"),
                new ImageContent(Fixtures.PNG_BASE64, Fixtures.PNG),
                new EmbeddedResource(new ResourceContents.Text(
                        "test://mixed-content-resource", Fixtures.JSON, MIXED_JSON))));
    }
}

package io.quiver.tools.admin.internal;

import io.quiver.api.McpTool;
import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;
import io.quiver.api.ToolResult;
import io.quiver.api.content.TextContent;
import io.quiver.api.schema.Description;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * {@code bundles_list}: every OSGi bundle of the server with its id, symbolic name, version, state
 * and location. Read-only; like every admin tool, off by default (the {@code admin} feature) and
 * admin-only under the default permissions.
 */
@Component(service = Tool.class)
@McpTool(name = "bundles_list",
        title = "List OSGi bundles",
        description = "Lists every OSGi bundle of this Quiver server: id, symbolic name, version, state "
                + "(INSTALLED means it could not resolve; ACTIVE means it runs) and install location.",
        output = BundlesListTool.BundleList.class,
        readOnlyHint = true, destructiveHint = false, idempotentHint = true, openWorldHint = false)
public final class BundlesListTool implements Tool {

    /** What {@code bundles_list} returns as structured content. */
    public record BundleList(@Description("The bundles, by id") List<BundleInfo> bundles) {
    }

    private final BundleContext context;

    @Activate
    public BundlesListTool(BundleContext context) {
        this.context = context;
    }

    @Override
    public Outcome call(ToolCall call) {
        List<BundleInfo> bundles = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (Bundle bundle : context.getBundles()) {
            BundleInfo info = Bundles.info(bundle);
            bundles.add(info);
            text.append(Bundles.describe(info)).append(" ").append(info.location()).append('\n');
        }
        text.append(bundles.size()).append(" bundles");
        return Outcome.done(new ToolResult(List.of(new TextContent(text.toString())), new BundleList(bundles),
                false, Map.of()));
    }
}

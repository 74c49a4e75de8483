package io.quiver.itests.paxexam.operator;

import io.quiver.api.Outcome;
import io.quiver.api.Tool;
import io.quiver.api.ToolCall;

/**
 * The tool of the bundle {@code AdminToolsIT} installs through {@code bundle_install}. Packaged at
 * test time into a bundle of its own by {@code FixtureBundles}; the probe never loads this class itself.
 */
public final class InstalledTool implements Tool {

    @Override
    public Outcome call(ToolCall call) {
        return Outcome.text("installed over MCP and running");
    }
}

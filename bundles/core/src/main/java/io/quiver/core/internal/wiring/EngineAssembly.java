package io.quiver.core.internal.wiring;

import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.engine.Engine;
import io.quiver.core.internal.era.SessionEra;
import io.quiver.core.internal.era.StatelessEra;
import io.quiver.core.internal.exec.Workers;
import io.quiver.core.internal.handlers.Handlers;
import io.quiver.core.internal.handlers.ResourceWatches;
import io.quiver.core.internal.pipeline.Extensions;
import io.quiver.core.internal.pipeline.ToolLimitsRegistry;
import io.quiver.core.internal.pipeline.ToolPipeline;
import io.quiver.core.internal.request.Listeners;
import io.quiver.core.internal.settings.EngineConfig;
import io.quiver.core.internal.settings.EngineSettings;

/**
 * The engine put together: its threads, the tool pipeline with the call SPIs in place, the method table
 * of each era, and the engine that dispatches to them. The OSGi component and the tests build it the same way.
 *
 * @param engine the engine
 * @param pipeline the {@code tools/call} pipeline the handlers share
 * @param workers the threads, closed with the assembly
 * @param catalog the catalog the engine serves
 * @param watches the resource subscriptions by the services that read them, following the catalog until closed
 */
public record EngineAssembly(Engine engine, ToolPipeline pipeline, Workers workers, Catalog catalog,
        ResourceWatches watches) implements AutoCloseable {

    public static EngineAssembly of(Catalog catalog, EngineSettings settings, ToolLimitsRegistry limits,
            Extensions extensions) {
        Workers workers = new Workers(settings.config());
        ToolPipeline pipeline = new ToolPipeline(catalog, workers, settings, limits, extensions);
        Listeners listeners = new Listeners();
        ResourceWatches watches = new ResourceWatches(catalog, pipeline.authorize(), workers.timer());
        catalog.addListener(watches);
        SessionEra sessionEra = new SessionEra(Handlers.sessionTable(catalog, pipeline, settings, watches));
        StatelessEra statelessEra = new StatelessEra(Handlers.statelessTable(catalog, pipeline, settings, listeners,
                watches), settings);
        Engine engine = new Engine(catalog, settings, pipeline.shares(), workers, listeners, sessionEra, statelessEra,
                watches::hears);
        // tasks that have not ended stop with the server: cancelled and recorded, not interrupted with the pool
        engine.alsoDrains(() -> pipeline.tasks().stopAll("the server stopped"));
        return new EngineAssembly(engine, pipeline, workers, catalog, watches);
    }

    /** Takes a new configuration while everything runs. */
    public void reconfigure(EngineConfig next) {
        engine.reconfigure(next);
        pipeline.reconfigure();
    }

    @Override
    public void close() {
        catalog.removeListener(watches);
        engine.close();
        watches.close(); // what listen streams and sessions held: the services hear their last subscribers went
        workers.close();
    }
}

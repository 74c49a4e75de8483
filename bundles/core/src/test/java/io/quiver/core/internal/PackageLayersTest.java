package io.quiver.core.internal;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages stay layered: no cycle between any two, and each layer uses only the ones
 * below it (docs/architecture.md draws the same picture).
 */
class PackageLayersTest {

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.quiver.core.internal");

    @Test
    void noPackageCycles() {
        slices().matching("io.quiver.core.internal.(*)..").should().beFreeOfCycles().check(CORE);
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("wiring").definedBy("..internal.wiring..")
                .layer("engine").definedBy("..internal.engine..")
                .layer("eras").definedBy("..internal.era..")
                .layer("handlers").definedBy("..internal.handlers..")
                .layer("pipeline").definedBy("..internal.pipeline..")
                .layer("request").definedBy("..internal.request..", "..internal.exec..")
                .layer("catalog").definedBy("..internal.catalog..")
                .layer("model").definedBy("..internal.messages..", "..internal.rpc..", "..internal.json..",
                        "..internal.settings..")
                .whereLayer("wiring").mayNotBeAccessedByAnyLayer()
                .whereLayer("engine").mayOnlyBeAccessedByLayers("wiring")
                .whereLayer("eras").mayOnlyBeAccessedByLayers("engine", "wiring")
                .whereLayer("handlers").mayOnlyBeAccessedByLayers("wiring")
                .whereLayer("pipeline").mayOnlyBeAccessedByLayers("handlers", "eras", "engine", "wiring")
                .whereLayer("request").mayOnlyBeAccessedByLayers("pipeline", "handlers", "eras", "engine", "wiring")
                .whereLayer("catalog").mayOnlyBeAccessedByLayers("request", "pipeline", "handlers", "eras", "engine",
                        "wiring")
                .check(CORE);
    }
}

package io.quiver.lib.feature.problems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.osgi.framework.dto.BundleDTO;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.ReferenceDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;

class ComponentProblemsTest {

    private static ComponentDescriptionDTO description(String name) {
        ComponentDescriptionDTO d = new ComponentDescriptionDTO();
        d.name = name;
        d.bundle = new BundleDTO();
        d.bundle.id = 12;
        d.configurationPid = new String[] {name};
        ReferenceDTO reference = new ReferenceDTO();
        reference.name = "engine";
        reference.interfaceName = "io.quiver.api.transport.McpEngine";
        d.references = new ReferenceDTO[] {reference};
        return d;
    }

    private static ComponentConfigurationDTO configuration(int state, String failure) {
        ComponentConfigurationDTO c = new ComponentConfigurationDTO();
        c.state = state;
        c.failure = failure;
        c.unsatisfiedReferences = new UnsatisfiedReferenceDTO[0];
        return c;
    }

    @Test
    void failedActivationShowsTheRootCause() {
        ComponentProblems.Problem p = ComponentProblems.problem(description("a"), configuration(
                ComponentConfigurationDTO.FAILED_ACTIVATION,
                "java.lang.reflect.InvocationTargetException\n\tat x.y(Z.java:1)\n"
                        + "Caused by: java.lang.IllegalStateException: no way\n\tat a.b(C.java:2)\n"));
        assertEquals(new ComponentProblems.Problem("a", 12, "failed activation", "java.lang.IllegalStateException: no way"), p);
    }

    @Test
    void unsatisfiedReferencesNameTheServiceAndTarget() {
        ComponentConfigurationDTO c = configuration(ComponentConfigurationDTO.UNSATISFIED_REFERENCE, null);
        UnsatisfiedReferenceDTO missing = new UnsatisfiedReferenceDTO();
        missing.name = "engine";
        missing.target = "(name=x)";
        c.unsatisfiedReferences = new UnsatisfiedReferenceDTO[] {missing};
        assertEquals("no service for engine (io.quiver.api.transport.McpEngine) matching (name=x)",
                ComponentProblems.problem(description("b"), c).detail());
    }

    @Test
    void activeAndSatisfiedComponentsAreFineAndDisabledOnesLeftOut() {
        assertNull(ComponentProblems.problem(description("c"), configuration(ComponentConfigurationDTO.ACTIVE, null)));
        assertNull(ComponentProblems.problem(description("c"), configuration(ComponentConfigurationDTO.SATISFIED, null)));
        ComponentDescriptionDTO disabled = description("d");
        ComponentDescriptionDTO waiting = description("e");
        Map<String, List<ComponentConfigurationDTO>> configurations = Map.of(
                "d", List.of(configuration(ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION, null)),
                "e", List.of(configuration(ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION, null)));
        List<ComponentProblems.Problem> problems = ComponentProblems.find(List.of(disabled, waiting),
                d -> !d.name.equals("d"), d -> configurations.get(d.name), d -> "never asked: not satisfied");
        assertEquals(List.of(new ComponentProblems.Problem("e", 12, "unsatisfied configuration",
                "needs a configuration for PID e")), problems);
    }

    @Test
    void aSatisfiedComponentWhoseClassCannotBeLoadedFailed() {
        ComponentDescriptionDTO classless = description("f");
        ComponentDescriptionDTO fine = description("g");
        ComponentDescriptionDTO active = description("h");
        Map<String, List<ComponentConfigurationDTO>> configurations = Map.of(
                "f", List.of(configuration(ComponentConfigurationDTO.SATISFIED, null)),
                "g", List.of(configuration(ComponentConfigurationDTO.SATISFIED, null)),
                "h", List.of(configuration(ComponentConfigurationDTO.ACTIVE, null)));
        List<String> asked = new java.util.ArrayList<>();
        List<ComponentProblems.Problem> problems = ComponentProblems.find(List.of(classless, fine, active), d -> true,
                d -> configurations.get(d.name), d -> {
                    asked.add(d.name);
                    return d.name.equals("f") ? "its class x.F cannot be loaded" : null;
                });
        assertEquals(List.of(new ComponentProblems.Problem("f", 12, "failed activation", "its class x.F cannot be loaded")),
                problems);
        assertEquals(List.of("f", "g"), asked, "an active component has its class");
    }
}

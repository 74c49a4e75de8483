package io.quiver.tools.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.osgi.service.component.ComponentContext;

/** The tool exists only while a host is allowed; bad settings are problems and keep the last good value. */
class FetchSettingsTest {

    private final List<String> calls = new ArrayList<>();
    private final ComponentContext context = (ComponentContext) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ComponentContext.class}, (proxy, method, args) -> {
                calls.add(method.getName() + " " + args[0]);
                return null;
            });

    private static final String TOOL = FetchTool.class.getName();

    @Test
    void theToolIsEnabledWhileAHostIsAllowed() {
        FetchSettings settings = new FetchSettings(context, Map.of());
        assertFalse(settings.policy().enabled());
        assertTrue(calls.isEmpty(), "off from the start: nothing to disable");
        settings.modified(Map.of("allowedHosts", "docs.example.com"));
        assertEquals(List.of("enableComponent " + TOOL), calls);
        settings.modified(Map.of("allowedHosts", "docs.example.com, api.example.com", "timeoutMs", "5000"));
        assertEquals(1, calls.size(), "still on: enabled once");
        assertEquals(5000, settings.policy().timeoutMs());
        settings.modified(Map.of("allowedHosts", ""));
        assertEquals(List.of("enableComponent " + TOOL, "disableComponent " + TOOL), calls);
    }

    @Test
    void badValuesAreProblemsAndKeepTheLastGoodOne() {
        FetchSettings settings = new FetchSettings(context, Map.of("allowedHosts", "a.example.com", "maxBytes", "4096",
                "felix.fileinstall.filename", "file:/srv/quiver/etc/io.quiver.tools.http.cfg"));
        assertTrue(settings.problems().isEmpty());
        settings.modified(Map.of("allowedHosts", "a.example.com, http://b.example.com/", "maxBytes", "lots",
                "felix.fileinstall.filename", "file:/srv/quiver/etc/io.quiver.tools.http.cfg"));
        assertEquals(4096, settings.policy().maxBytes(), "the last good value");
        assertEquals(2, settings.problems().size(), settings.problems().toString());
        assertEquals("/srv/quiver/etc/io.quiver.tools.http.cfg", settings.problems().get(0).subject());
        assertTrue(settings.problems().toString().contains("maxBytes = lots is not a whole number"),
                settings.problems().toString());
        assertTrue(settings.problems().toString().contains("'http://b.example.com/'"), settings.problems().toString());
        assertTrue(settings.policy().allowsHost("a.example.com", 443));
    }
}

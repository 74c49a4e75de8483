package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrameworkPropertiesTest {

    @TempDir
    Path home;

    private Map<String, Object> of(Map<String, String> given) {
        LaunchSettings d = LaunchSettings.defaults();
        LaunchSettings settings = new LaunchSettings(d.features(), 0, d.bind(), home.resolve("etc"),
                home.resolve("deploy"), null, given, d.startTimeout(), true);
        return FrameworkProperties.of(settings, new Storage(home.resolve("data"), true),
                new DirectoryWatch(settings.etc(), settings.deploy()), "");
    }

    @Test
    void eventAdminRunsASmallPoolUnlessTheStartSaysOtherwise() {
        assertEquals("4", of(Map.of()).get(FrameworkProperties.EVENT_ADMIN_THREADS));
        assertEquals("12", of(Map.of(FrameworkProperties.EVENT_ADMIN_THREADS, "12"))
                .get(FrameworkProperties.EVENT_ADMIN_THREADS));
    }
}

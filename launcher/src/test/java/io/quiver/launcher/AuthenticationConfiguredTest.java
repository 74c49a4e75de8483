package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher tells the transport to require authentication from the first request when etc/ configures it. */
class AuthenticationConfiguredTest {

    @Test
    void aJwtConfigurationOrAnApiKeyFileCounts(@TempDir Path etc) throws Exception {
        assertFalse(FrameworkProperties.authenticationConfigured(etc));
        Files.writeString(etc.resolve("io.quiver.transport.http.cfg"), "path = /mcp\n");
        Files.writeString(etc.resolve("io.quiver.auth.apikey.cfg.example"), "");
        assertFalse(FrameworkProperties.authenticationConfigured(etc));
        Files.writeString(etc.resolve("io.quiver.auth.apikey-ci.cfg"), "");
        assertTrue(FrameworkProperties.authenticationConfigured(etc));
        Files.delete(etc.resolve("io.quiver.auth.apikey-ci.cfg"));
        Files.writeString(etc.resolve("io.quiver.auth.jwt.cfg"), "");
        assertTrue(FrameworkProperties.authenticationConfigured(etc));
        Files.delete(etc.resolve("io.quiver.auth.jwt.cfg"));
        Files.writeString(etc.resolve("io.quiver.auth.jwt.config"), "");
        assertTrue(FrameworkProperties.authenticationConfigured(etc), "the typed .config form too");
        assertFalse(FrameworkProperties.authenticationConfigured(etc.resolve("missing")));
    }
}

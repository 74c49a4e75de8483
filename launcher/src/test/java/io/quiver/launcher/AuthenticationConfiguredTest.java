package io.quiver.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Test
    void theScopeRulesOfEtcAreCountedForTheCatalogToAwait(@TempDir Path etc) throws Exception {
        assertEquals(0, FrameworkProperties.scopeRules(etc));
        Files.writeString(etc.resolve("io.quiver.scope-acme.cfg"), "tenants = acme\n");
        Files.writeString(etc.resolve("io.quiver.scope-globex.config"), "tenants=\"globex\"\n");
        Files.writeString(etc.resolve("io.quiver.scope-old.cfg.bak"), "");
        Files.writeString(etc.resolve("io.quiver.scopes.cfg"), "");
        assertEquals(2, FrameworkProperties.scopeRules(etc));
        assertEquals(0, FrameworkProperties.scopeRules(etc.resolve("missing")));
    }
}

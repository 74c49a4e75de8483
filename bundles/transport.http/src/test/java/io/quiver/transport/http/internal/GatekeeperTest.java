package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatekeeperTest {

    @Test
    void readsOnlyBearerTokens() {
        assertEquals("abc.def.ghi", Gatekeeper.bearer("Bearer abc.def.ghi"));
        assertEquals("qvk_x", Gatekeeper.bearer("  bearer   qvk_x "));
        assertNull(Gatekeeper.bearer(null));
        assertNull(Gatekeeper.bearer("Bearer "));
        assertNull(Gatekeeper.bearer("Basic YWxpY2U6c2VjcmV0"));
        assertNull(Gatekeeper.bearer("Bearerabc"));
    }

    @Test
    void theMetadataPathIsInsertedBeforeTheResourcePath() {
        assertEquals("https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
                Gatekeeper.metadataUrl("https://mcp.example.com/mcp"));
        assertEquals("http://127.0.0.1:7711/.well-known/oauth-protected-resource/t/acme/mcp",
                Gatekeeper.metadataUrl("http://127.0.0.1:7711/t/acme/mcp"));
        assertEquals("https://mcp.example.com/.well-known/oauth-protected-resource",
                Gatekeeper.metadataUrl("https://mcp.example.com/"));
    }

    @Test
    void requiredOnceAnAuthenticatorIsThereOrWhenTheServerSaysSo() {
        Gatekeeper open = new Gatekeeper(false);
        assertFalse(open.required());
        Authenticator any = token -> Authentication.notMine();
        open.authenticators(List.of(any));
        assertTrue(open.required());
        open.authenticators(List.of());
        assertFalse(open.required());
        assertTrue(new Gatekeeper(true).required(), "required before any authenticator is up");
    }
}

package io.quiver.transport.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.CallerIdentity;
import io.quiver.api.auth.Authentication;
import io.quiver.api.auth.Authenticator;
import io.quiver.lib.config.TypedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    private static final CallerIdentity ALICE = new CallerIdentity("alice", "acme", Set.of("dev"), true);
    private static final String METADATA = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

    private static Gatekeeper.Verdict check(Gatekeeper gatekeeper, String authorization) {
        return gatekeeper.check(authorization, "192.0.2.1", () -> METADATA, false);
    }

    @Test
    void theFirstAuthenticatorThatKnowsTheTokenDecidesAndARefusalIsNeverOverruled() {
        List<String> asked = new ArrayList<>();
        Authenticator refusesKeys = token -> {
            asked.add("keys");
            return token.startsWith("qvk_") ? Authentication.refused("revoked") : Authentication.notMine();
        };
        Authenticator acceptsAll = token -> {
            asked.add("all");
            return Authentication.accepted(ALICE, Set.of());
        };
        Gatekeeper gatekeeper = new Gatekeeper(false);
        gatekeeper.authenticators(List.of(refusesKeys, acceptsAll));

        assertEquals(new Gatekeeper.Admitted(ALICE), check(gatekeeper, "Bearer eyJ.a.b"), "not the first one's: the next decides");
        assertEquals(List.of("keys", "all"), asked);
        asked.clear();
        Gatekeeper.Verdict revoked = check(gatekeeper, "Bearer qvk_revoked");
        assertTrue(revoked instanceof Gatekeeper.Challenged c && c.status() == 401
                && c.challenge().contains("error=\"invalid_token\"") && c.challenge().contains(METADATA), revoked::toString);
        assertEquals(List.of("keys"), asked, "a refusal ends the search: a lower-ranked authenticator cannot overrule it");
    }

    @Test
    void aTokenNoAuthenticatorKnowsOrOneThatFailsIsRefused() {
        Gatekeeper nobodys = new Gatekeeper(false);
        nobodys.authenticators(List.of(token -> Authentication.notMine()));
        assertTrue(check(nobodys, "Bearer opaque") instanceof Gatekeeper.Challenged c && c.status() == 401);

        List<String> asked = new ArrayList<>();
        Gatekeeper failing = new Gatekeeper(false);
        failing.authenticators(List.of(token -> {
            throw new IllegalStateException("the JWKS parser broke");
        }, token -> {
            asked.add("next");
            return Authentication.accepted(ALICE, Set.of());
        }));
        Gatekeeper.Verdict v = check(failing, "Bearer eyJ.a.b");
        assertTrue(v instanceof Gatekeeper.Challenged c && c.status() == 401, v::toString);
        assertEquals(List.of(), asked, "a failed check is a refusal, not a pass to the next authenticator");
    }

    @Test
    void withoutABearerTokenTheChallengeNamesTheMetadataOnly() {
        Gatekeeper required = new Gatekeeper(true); // the server requires authentication, no authenticator is up yet
        for (String header : new String[] {null, "Basic YWxpY2U6c2VjcmV0"}) {
            Gatekeeper.Verdict v = check(required, header);
            assertEquals(new Gatekeeper.Challenged(401, "Bearer resource_metadata=\"" + METADATA + "\"",
                    "Unauthorized: this endpoint needs an Authorization: Bearer token"), v);
        }
        assertTrue(check(required, "Bearer anything") instanceof Gatekeeper.Challenged c && c.status() == 401,
                "no authenticator is up: nothing is accepted");
        assertEquals(new Gatekeeper.Admitted(CallerIdentity.ANONYMOUS), check(new Gatekeeper(false), null),
                "no authentication at all: the local caller");
    }

    @Test
    void aTokenMissingARequiredScopeIsForbidden() {
        Gatekeeper gatekeeper = new Gatekeeper(false);
        gatekeeper.configure(TypedConfig.read(HttpConfig.class, Map.of("requiredScopes", "mcp:tools, mcp:read"), null)
                .config());
        gatekeeper.authenticators(List.of(token -> Authentication.accepted(ALICE,
                token.equals("both") ? Set.of("mcp:read", "mcp:tools", "other") : Set.of("mcp:read"))));
        Gatekeeper.Verdict partial = check(gatekeeper, "Bearer one");
        assertTrue(partial instanceof Gatekeeper.Challenged c && c.status() == 403
                && c.challenge().contains("error=\"insufficient_scope\"") && c.message().endsWith("mcp:tools"),
                partial::toString);
        assertEquals(new Gatekeeper.Admitted(ALICE), check(gatekeeper, "Bearer both"));
        assertEquals(Set.of("mcp:tools", "mcp:read"), gatekeeper.requiredScopes());
    }

    @Test
    void anAuthenticatedCallerUsesItsOwnTenantsEndpointOnly() {
        Gatekeeper gatekeeper = new Gatekeeper(false);
        assertEquals(new Gatekeeper.Admitted(ALICE), gatekeeper.place(ALICE, "acme", "/t/acme/mcp", () -> METADATA));
        Gatekeeper.Verdict other = gatekeeper.place(ALICE, "globex", "/t/globex/mcp", () -> METADATA);
        assertTrue(other instanceof Gatekeeper.Challenged c && c.status() == 403
                && c.message().equals("Forbidden: the token is for tenant acme, not globex"), other::toString);
        assertEquals(new Gatekeeper.Admitted(CallerIdentity.ANONYMOUS),
                gatekeeper.place(CallerIdentity.ANONYMOUS, "globex", "/t/globex/mcp", () -> METADATA),
                "the unauthenticated local caller is the operator");
    }
}

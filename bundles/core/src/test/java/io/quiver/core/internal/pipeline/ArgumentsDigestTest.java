package io.quiver.core.internal.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quiver.core.internal.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ArgumentsDigestTest {

    @Test
    void theDigestIsOfTheCanonicalJson() throws Exception {
        String canonical = "{\"a\":\"x\",\"b\":{\"c\":[2,1],\"d\":null}}";
        String expected = "sha256:" + HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        assertEquals(expected, digest(canonical));
        assertEquals(expected, digest("{ \"b\" : { \"d\":null, \"c\":[ 2, 1 ] },\n \"a\":\"x\" }"),
                "member order and whitespace do not count, nested objects included");
    }

    @Test
    void differentArgumentsDiffer() {
        assertNotEquals(digest("{\"a\":null}"), digest("{}"), "a null member is an argument");
        assertNotEquals(digest("{\"c\":[1,2]}"), digest("{\"c\":[2,1]}"), "arrays keep their order");
        assertNotEquals(digest("{\"a\":1}"), digest("{\"a\":\"1\"}"));
    }

    @Test
    void noArgumentsNoDigest() {
        assertNull(ArgumentsDigest.of(null));
    }

    @Test
    void aHostsEditDoesNotChangeTheDigestOfWhatTheClientSent() {
        Stages stages = new Stages().tool("t", call -> io.quiver.api.Outcome.text("ran"), null).listening();
        Call call = stages.resolved("t", "{\"secret\":\"s3cr3t\"}");
        call.arguments(Stages.args("{\"secret\":\"redacted\"}"));
        assertEquals(digest("{\"secret\":\"s3cr3t\"}"), stages.over(call).argumentsDigest());
        assertEquals("stage-test", stages.events.get(0).clientName());
    }

    private static String digest(String json) {
        return ArgumentsDigest.of(Json.MAPPER.readTree(json));
    }
}

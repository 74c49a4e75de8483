package io.quiver.lib.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class FeatureReaderTest {

    private static Feature read(String json) throws Exception {
        return FeatureReader.read("test", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void bundlesInFileOrderWithStartOrders() throws Exception {
        Feature f = read("""
                {
                  // the specification allows comments
                  "feature-resource-version": "1.0",
                  "id": "io.quiver:feature-x:1.0",
                  "name": "ignored", "description": "ignored",
                  "bundles": [
                    { "id": "g:b:1", "start-order": 5 },
                    "g:a:2",
                    { "id": "g:c:jar:cls:3", "start-order": "7", "other": "metadata" }
                  ]
                }
                """);
        assertEquals("test", f.name());
        assertEquals("io.quiver:feature-x:1.0", f.id());
        assertEquals(List.of(
                new FeatureBundle(ArtifactId.parse("g:b:1"), 5),
                new FeatureBundle(ArtifactId.parse("g:a:2"), FeatureBundle.DEFAULT_START_ORDER),
                new FeatureBundle(ArtifactId.parse("g:c:jar:cls:3"), 7)), f.bundles());
        assertTrue(f.configurations().isEmpty());
    }

    @Test
    void configurationsUntypedAndTyped() throws Exception {
        Feature f = read("""
                { "id": "g:f:1",
                  "configurations": {
                    "io.quiver.core": {
                      "s": "text", "n": 42, "d": 0.5, "b": true,
                      "strings": ["x", "y"], "longs": [1, 2], "mixed": [1, "a"],
                      "port:Integer": 7711, "ratio:Float": "1.5", "hosts:String[]": ["a", "b"],
                      "ints:int[]": [1, 2], "ids:Collection<Long>": [3, 4], "c:Character": "z",
                      ":configurator:policy": "force"
                    },
                    "factory~name": { "k": "v" }
                  }
                }
                """);
        Map<String, Object> c = f.configurations().get("io.quiver.core");
        assertEquals("text", c.get("s"));
        assertEquals(42L, c.get("n"));
        assertEquals(0.5d, c.get("d"));
        assertEquals(Boolean.TRUE, c.get("b"));
        assertArrayEquals(new String[] {"x", "y"}, (String[]) c.get("strings"));
        assertArrayEquals(new Long[] {1L, 2L}, (Long[]) c.get("longs"));
        assertArrayEquals(new String[] {"1", "a"}, (String[]) c.get("mixed"));
        assertEquals(7711, c.get("port"));
        assertEquals(1.5f, c.get("ratio"));
        assertArrayEquals(new String[] {"a", "b"}, (String[]) c.get("hosts"));
        assertArrayEquals(new int[] {1, 2}, (int[]) c.get("ints"));
        assertEquals(List.of(3L, 4L), c.get("ids"));
        assertEquals('z', c.get("c"));
        assertEquals(13, c.size());
        assertEquals(Map.of("k", "v"), f.configurations().get("factory~name"));
    }

    @Test
    void invalidFeatures() {
        assertInvalid("not valid JSON", "{ \"id\": ");
        assertInvalid("no id", "{ \"bundles\": [] }");
        assertInvalid("invalid artifact id", "{ \"id\": \"only:two\" }");
        assertInvalid("bundles is not an array", "{ \"id\": \"g:a:1\", \"bundles\": {} }");
        assertInvalid("has no id", "{ \"id\": \"g:a:1\", \"bundles\": [ { \"start-order\": 1 } ] }");
        assertInvalid("not an integer", "{ \"id\": \"g:a:1\", \"bundles\": [ { \"id\": \"g:b:1\", \"start-order\": \"x\" } ] }");
        assertInvalid("unsupported feature-resource-version", "{ \"feature-resource-version\": \"2.0\", \"id\": \"g:a:1\" }");
        assertInvalid("'x' is not a Integer", "{ \"id\": \"g:a:1\", \"configurations\": { \"p\": { \"n:Integer\": \"x\" } } }");
        assertInvalid("unsupported type", "{ \"id\": \"g:a:1\", \"configurations\": { \"p\": { \"n:Date\": \"x\" } } }");
        assertInvalid("configuration p is not a JSON object", "{ \"id\": \"g:a:1\", \"configurations\": { \"p\": 1 } }");
    }

    private static void assertInvalid(String expected, String json) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(json));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' should contain '" + expected + "'");
    }
}

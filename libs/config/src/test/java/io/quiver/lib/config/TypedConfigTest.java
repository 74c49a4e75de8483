package io.quiver.lib.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TypedConfigTest {

    @interface Settings {
        @Min(1)
        int pageSize() default 100;

        long timeoutMs() default 60_000;

        boolean enabled() default true;

        String name() default "quiver";

        String[] hosts() default {};

        @OneOf({"public", "private"})
        String scope() default "private";

        double share() default 0.5;

        String some_dotted__name() default "x";
    }

    @interface Required {
        String tool();
    }

    @Test
    void missingSettingsTakeTheAnnotationsDefaults() {
        Settings s = TypedConfig.defaults(Settings.class);
        assertEquals(100, s.pageSize());
        assertEquals(60_000, s.timeoutMs());
        assertTrue(s.enabled());
        assertEquals("quiver", s.name());
        assertEquals(0, s.hosts().length);
        assertEquals(Settings.class, s.annotationType());
    }

    @Test
    void textFromCfgFilesAndTypedValuesBothConvert() {
        Settings s = TypedConfig.of(Settings.class, Map.of("pageSize", " 7 ", "timeoutMs", 5, "enabled", "FALSE",
                "hosts", "a, b", "share", "0.25", "scope", "public", "some.dotted_name", "y"));
        assertEquals(7, s.pageSize());
        assertEquals(5, s.timeoutMs());
        assertEquals(false, s.enabled());
        assertArrayEquals(new String[] {"a, b"}, s.hosts());
        assertEquals(0.25, s.share());
        assertEquals("public", s.scope());
        assertEquals("y", s.some_dotted__name());
        Settings typed = TypedConfig.of(Settings.class, Map.of("pageSize", 3L, "hosts", List.of("a", "b")));
        assertEquals(3, typed.pageSize());
        assertArrayEquals(new String[] {"a", "b"}, typed.hosts());
    }

    @Test
    void aBadValueKeepsTheLastGoodOneAndIsReportedOnOneLine() {
        Settings good = TypedConfig.of(Settings.class, Map.of("pageSize", "3", "timeoutMs", "10"));
        TypedConfig.Result<Settings> r = TypedConfig.read(Settings.class, Map.of("pageSize", "abc", "timeoutMs", "20",
                "enabled", "maybe", "scope", "everyone", "felix.fileinstall.filename", "file:/srv/etc/io.quiver.core.cfg"),
                good);
        assertEquals(3, r.config().pageSize(), "the last good value stays");
        assertEquals(20, r.config().timeoutMs(), "the good values of the same file are taken");
        assertTrue(r.config().enabled());
        assertEquals("private", r.config().scope());
        assertEquals(3, r.problems().size(), r.problems().toString());
        assertEquals("/srv/etc/io.quiver.core.cfg: pageSize = abc is not an integer; keeping 3",
                r.problems().get(1).text(), "problems come by setting name");
        assertTrue(r.problems().stream().anyMatch(p -> p.text().contains("scope = everyone is not one of public, private")));
        TypedConfig.Result<Settings> small = TypedConfig.read(Settings.class, Map.of("pageSize", 0), null);
        assertEquals("the configuration: pageSize = 0 is not an integer of at least 1; keeping 100",
                small.problems().get(0).text());
        assertEquals(100, small.config().pageSize());
        assertTrue(TypedConfig.read(Settings.class, Map.of("pageSize", 2.5), null).problems().get(0).text()
                .contains("not an integer"));
        assertTrue(TypedConfig.read(Settings.class, Map.of("pageSize", 1L << 40), null).problems().get(0).text()
                .contains("not an integer"));
        assertThrows(IllegalArgumentException.class, () -> TypedConfig.of(Settings.class, Map.of("pageSize", "x")));
    }

    @Test
    void aMemberWithoutDefaultIsRequired() {
        TypedConfig.Result<Required> r = TypedConfig.read(Required.class, Map.of("service.pid", "p"), null);
        assertEquals("configuration p: tool is required and missing", r.problems().get(0).text());
        assertEquals("", r.config().tool());
        assertEquals("t", TypedConfig.of(Required.class, Map.of("tool", "t")).tool());
    }

    @Test
    void instancesCompareByValue() {
        Settings a = TypedConfig.of(Settings.class, Map.of("hosts", new String[] {"x"}));
        Settings b = TypedConfig.of(Settings.class, Map.of("hosts", List.of("x")));
        assertEquals(a, b);
        assertTrue(TypedConfig.changed(a, TypedConfig.defaults(Settings.class), "hosts"));
        a.hosts()[0] = "changed";
        assertEquals("x", a.hosts()[0], "arrays are copies");
    }
}

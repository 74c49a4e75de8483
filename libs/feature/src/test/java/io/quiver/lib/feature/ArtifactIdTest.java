package io.quiver.lib.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ArtifactIdTest {

    @Test
    void threePartsAreAJar() {
        ArtifactId id = ArtifactId.parse("org.apache.felix:org.apache.felix.scr:2.2.18");
        assertEquals("org.apache.felix", id.groupId());
        assertEquals("org.apache.felix.scr", id.artifactId());
        assertEquals("jar", id.type());
        assertNull(id.classifier());
        assertEquals("2.2.18", id.version());
        assertEquals("org.apache.felix.org.apache.felix.scr-2.2.18.jar", id.fileName());
        assertEquals("org/apache/felix/org.apache.felix.scr/2.2.18/org.apache.felix.scr-2.2.18.jar", id.repositoryPath());
        assertEquals("org.apache.felix:org.apache.felix.scr:2.2.18", id.toString());
    }

    @Test
    void typeAndClassifier() {
        ArtifactId id = ArtifactId.parse("g:a:jar:tests:1.0");
        assertEquals("tests", id.classifier());
        assertEquals("g.a-1.0-tests.jar", id.fileName());
        assertEquals("g/a/1.0/a-1.0-tests.jar", id.repositoryPath());
        assertEquals("g:a:jar:tests:1.0", id.toString());
        assertEquals("g:a:zip:1.0", ArtifactId.parse("g:a:zip:1.0").toString());
        assertEquals(ArtifactId.parse("g:a:1.0"), ArtifactId.parse("g:a:jar:1.0"));
    }

    @Test
    void invalidIds() {
        assertThrows(IllegalArgumentException.class, () -> ArtifactId.parse("g:a"));
        assertThrows(IllegalArgumentException.class, () -> ArtifactId.parse("g:a:b:c:d:1"));
        assertThrows(IllegalArgumentException.class, () -> ArtifactId.parse("g::1"));
        assertThrows(IllegalArgumentException.class, () -> ArtifactId.parse("g:../a:1"));
    }
}

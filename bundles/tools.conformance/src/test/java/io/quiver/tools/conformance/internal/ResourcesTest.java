package io.quiver.tools.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.content.ResourceContents;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourcesTest {

    @Test
    void staticTextResource() {
        List<ResourceContents> contents = new StaticTextResource().read(new FakeRequests.Read("test://static-text", Map.of()));
        assertEquals(List.of(new ResourceContents.Text("test://static-text", "text/plain",
                "This is the content of the static text resource.")), contents);
    }

    @Test
    void staticBinaryResourceIsThePng() {
        ResourceContents.Blob blob = assertInstanceOf(ResourceContents.Blob.class,
                new StaticBinaryResource().read(new FakeRequests.Read("test://static-binary", Map.of())).get(0));
        assertEquals("test://static-binary", blob.uri());
        assertEquals("image/png", blob.mimeType());
        assertEquals(Fixtures.PNG_BASE64, blob.blob());
    }

    @Test
    void watchedResourceCanBeRead() {
        ResourceContents.Text text = assertInstanceOf(ResourceContents.Text.class,
                new WatchedResource().read(new FakeRequests.Read("test://watched-resource", Map.of())).get(0));
        assertEquals("Watched resource content", text.text());
    }

    @Test
    void templateSubstitutesTheIdIntoUriAndContent() {
        List<ResourceContents> contents = new TemplateDataResource()
                .read(new FakeRequests.Read("test://template/123/data", Map.of("id", "123")));
        assertEquals(List.of(new ResourceContents.Text("test://template/123/data", "application/json",
                "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}")), contents);
    }

    @Test
    void templateHasNoResourceForAnIdThatIsNotPlain() {
        assertTrue(new TemplateDataResource()
                .read(new FakeRequests.Read("test://template/a%22b/data", Map.of("id", "a\"b"))).isEmpty());
    }
}

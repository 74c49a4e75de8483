package io.quiver.tools.conformance.internal;

import io.quiver.api.content.ResourceContents;
import io.quiver.api.resource.McpResourceTemplate;
import io.quiver.api.resource.ResourceRequest;
import io.quiver.api.resource.ResourceTemplate;
import java.util.List;
import java.util.regex.Pattern;
import org.osgi.service.component.annotations.Component;

/** {@code test://template/{id}/data}: a small JSON document that names the id it was read with. */
@Component(service = ResourceTemplate.class)
@McpResourceTemplate(uriTemplate = "test://template/{id}/data", name = "template", title = "Resource Template",
        description = "A resource template with parameter substitution", mimeType = Fixtures.JSON)
public final class TemplateDataResource implements ResourceTemplate {

    /**
     * Ids this family has. Limiting them to characters JSON strings take verbatim keeps the
     * document below well formed without a JSON library (the bundle depends on the API alone).
     */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    @Override
    public List<ResourceContents> read(ResourceRequest request) {
        String id = request.variables().get("id");
        if (id == null || !ID.matcher(id).matches()) {
            return List.of();
        }
        String json = "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}";
        return List.of(new ResourceContents.Text(request.uri(), Fixtures.JSON, json));
    }
}

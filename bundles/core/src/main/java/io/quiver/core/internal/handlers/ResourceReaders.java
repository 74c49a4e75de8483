package io.quiver.core.internal.handlers;

import io.quiver.api.CallerIdentity;
import io.quiver.api.call.Target;
import io.quiver.core.internal.catalog.BoundedText;
import io.quiver.core.internal.catalog.Catalog;
import io.quiver.core.internal.catalog.ResourceEntry;
import io.quiver.core.internal.catalog.TemplateEntry;
import io.quiver.core.internal.pipeline.Authorize;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Who reads a resource URI for a caller, the one rule {@code resources/read} and subscriptions follow: nobody
 * unless the call policy lets the caller read the URI itself ({@code resource:URI}, whichever service would
 * serve it); then the fixed resource of that URI, else every template that matches it and that the caller may
 * use ({@code template:URI-TEMPLATE}), in the catalog's order. So a {@code deny} of a resource URI holds for
 * reads a template would serve too.
 */
final class ResourceReaders {

    /** A template that matches the URI, and the values of its variables. */
    record Match(TemplateEntry template, Map<String, String> variables) {
    }

    /**
     * What reads a URI: {@code fixed}, or else {@code templates} (both empty when nothing may).
     *
     * @param fixed the fixed resource of the URI, or null
     * @param templates the templates that match it, when there is no fixed resource
     */
    record Found(ResourceEntry fixed, List<Match> templates) {

        static final Found NONE = new Found(null, List.of());

        boolean isEmpty() {
            return fixed == null && templates.isEmpty();
        }
    }

    private ResourceReaders() {
    }

    static Found of(Catalog catalog, Authorize authorize, CallerIdentity caller, String uri) {
        if (!authorize.allows(caller, Target.resource(uri))) {
            return Found.NONE;
        }
        ResourceEntry fixed = catalog.resources(caller).get(uri);
        if (fixed != null) {
            return new Found(fixed, List.of());
        }
        List<Match> templates = new ArrayList<>(1);
        try (BoundedText.Budget budget = BoundedText.shared()) { // all the templates together
            for (TemplateEntry template : catalog.templates(caller).values()) {
                Map<String, String> variables = template.matcher().match(uri);
                if (variables != null && authorize.allows(caller, Target.resourceTemplate(template.uriTemplate()))) {
                    templates.add(new Match(template, variables));
                }
            }
        }
        return templates.isEmpty() ? Found.NONE : new Found(null, templates);
    }
}

package io.quiver.core.internal.catalog;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.AnnotationKeyword;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Tool schemas checked before a tool is taken: valid against the meta-schema of their dialect
 * (JSON Schema 2020-12 unless {@code $schema} names another), compiled with every {@code $ref}
 * resolved. A schema that fails is refused with a one-line reason, so a typo ({@code "strng"}) is the
 * tool author's error at registration, not a model's at every call. Schemas load nothing from the
 * network or the class path: only the bundled meta-schemas resolve.
 */
final class SchemaCheck {

    /** The dialects a tool schema may declare with {@code $schema}, by id (with and without the trailing {@code #}). */
    private static final Map<String, SpecificationVersion> DIALECTS = Map.of(
            "https://json-schema.org/draft/2020-12/schema", SpecificationVersion.DRAFT_2020_12,
            "https://json-schema.org/draft/2019-09/schema", SpecificationVersion.DRAFT_2019_09,
            "http://json-schema.org/draft-07/schema", SpecificationVersion.DRAFT_7,
            "http://json-schema.org/draft-06/schema", SpecificationVersion.DRAFT_6,
            "http://json-schema.org/draft-04/schema", SpecificationVersion.DRAFT_4);
    private static final int MAX_REPORTED = 3;
    /**
     * Most schema nodes a schema may amount to with its local {@code $ref}s written out: validating arguments walks
     * them, so a schema of a few lines whose references double at every level (an upstream server's, say) would
     * take minutes and the heap at every call.
     */
    static final long MAX_EXPANDED = 200_000;

    /**
     * JSON Schema 2020-12 knowing MCP's own annotation keyword {@code x-mcp-header} (2026-07-28), so it
     * is neither an unknown keyword nor a validation rule. Made on first use: the dialect's classes
     * take ~25 ms to initialise, which the catalog's warm-up thread spends, not the thread that
     * activates the catalog.
     */
    private volatile SchemaRegistry registry;

    /** The registry tool schemas compile in. */
    SchemaRegistry registry() {
        SchemaRegistry r = registry;
        if (r == null) {
            synchronized (this) {
                r = registry;
                if (r == null) {
                    r = newRegistry();
                    registry = r;
                }
            }
        }
        return r;
    }

    /** Resolves json-schema.org's meta-schemas and nothing else: a tool's schema sends the server to no URL. */
    private static SchemaRegistry newRegistry() {
        Dialect dialect = Dialect.builder(Dialects.getDraft202012()).keyword(new AnnotationKeyword("x-mcp-header")).build();
        return SchemaRegistry.withDefaultDialect(dialect, b -> b.schemaLoader(loader -> loader.allow(
                iri -> iri.toString().startsWith("https://json-schema.org/")
                        || iri.toString().startsWith("http://json-schema.org/")))
                .schemaRegistryConfig(BoundedRegularExpressions.CONFIG));
    }

    /**
     * Checks a tool schema and compiles it.
     *
     * @param what how the reason names the schema, e.g. {@code tool greet: inputSchema}
     * @throws IllegalArgumentException with a one-line reason when the schema is not valid
     */
    Schema compile(JsonNode schema, String what) {
        JsonNode declared = schema.get("$schema");
        String dialect = declared == null ? DIALECTS.keySet().stream().filter(d -> d.contains("2020-12")).findFirst()
                .orElseThrow() : declared.isString() ? stripHash(declared.stringValue()) : null;
        if (dialect == null || !DIALECTS.containsKey(dialect)) {
            throw new IllegalArgumentException(what + ": $schema " + declared + " is not a JSON Schema dialect this"
                    + " server knows (2020-12, 2019-09, draft-07, draft-06, draft-04)");
        }
        long expanded = expanded(schema);
        if (expanded > MAX_EXPANDED) {
            throw new IllegalArgumentException(what + " is too complex to check arguments against: with its $refs"
                    + " written out it has more than " + MAX_EXPANDED + " schemas");
        }
        List<Error> errors = meta(dialect).validate(schema);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(what + " is not a valid JSON Schema: " + errors.stream()
                    .limit(MAX_REPORTED).map(Error::toString).collect(Collectors.joining("; "))
                    + (errors.size() > MAX_REPORTED ? " (and " + (errors.size() - MAX_REPORTED) + " more)" : ""));
        }
        try {
            return compileNow(schema);
        } catch (SchemaException | IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " does not compile: " + oneLine(e));
        }
    }

    /**
     * A schema this server generated (from a record type, or the empty object schema): valid by
     * construction, so not checked against the meta-schema, and compiled when a call first needs it.
     * Reading a tool bundle's tools at its start then costs no schema compilation (~2 ms a tool).
     */
    Supplier<Schema> generated(JsonNode schema) {
        return new Supplier<>() {
            private volatile Schema compiled;

            @Override
            public Schema get() {
                Schema s = compiled;
                if (s == null) { // two first calls at once may both compile: the same schema, no harm
                    s = compileNow(schema);
                    compiled = s;
                }
                return s;
            }
        };
    }

    /**
     * How many schema nodes a schema amounts to with its references ({@code $ref}, {@code $dynamicRef}) written
     * out, counted once per node (so in time linear in the schema), up to a little more than {@link #MAX_EXPANDED}.
     * References are resolved as the validator resolves them within the schema: to the root, a JSON pointer (its
     * percent-escapes decoded), an {@code $anchor} or {@code $dynamicAnchor}, or a subschema's {@code $id} with
     * either after it. A reference back to a node being counted (a recursive schema) counts one: it goes as deep
     * as the arguments do. One that resolves to nothing here fails to compile anyway (nothing is fetched).
     */
    static long expanded(JsonNode root) {
        Map<String, JsonNode> named = new HashMap<>();
        index(root, named);
        return expanded(root, root, named, new IdentityHashMap<>(), Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    /** The subschemas a reference may name: by {@code $id} (without a fragment) and by {@code #anchor}. */
    private static void index(JsonNode node, Map<String, JsonNode> named) {
        if (node.isObject()) {
            for (String keyword : List.of("$id", "$anchor", "$dynamicAnchor")) {
                JsonNode value = node.get(keyword);
                if (value != null && value.isString()) {
                    String name = value.stringValue();
                    named.putIfAbsent(keyword.equals("$id") ? stripHash(name) : "#" + name, node);
                }
            }
        }
        if (node.isContainer()) {
            for (JsonNode child : node) {
                index(child, named);
            }
        }
    }

    private static JsonNode target(String ref, JsonNode root, Map<String, JsonNode> named) {
        int hash = ref.indexOf('#');
        JsonNode base = hash == 0 ? root : named.get(hash < 0 ? ref : ref.substring(0, hash));
        if (base == null || hash < 0 || hash == ref.length() - 1) {
            return base;
        }
        String fragment = ref.substring(hash + 1);
        if (!fragment.startsWith("/")) {
            return named.get("#" + fragment);
        }
        try {
            return base.at(URLDecoder.decode(fragment.replace("+", "%2B"), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static long expanded(JsonNode node, JsonNode root, Map<String, JsonNode> named, Map<JsonNode, Long> counted,
            Set<JsonNode> open) {
        if (!node.isContainer()) {
            return 1;
        }
        Long known = counted.get(node);
        if (known != null) {
            return known;
        }
        if (!open.add(node)) {
            return 1;
        }
        long total = 1;
        if (node.isObject()) {
            for (String keyword : List.of("$ref", "$dynamicRef")) {
                JsonNode ref = node.get(keyword);
                JsonNode target = ref != null && ref.isString() ? target(ref.stringValue(), root, named) : null;
                if (target != null && !target.isMissingNode()) {
                    total += expanded(target, root, named, counted, open);
                }
            }
        }
        for (JsonNode child : node) {
            if (total > MAX_EXPANDED) {
                break;
            }
            total += expanded(child, root, named, counted, open);
        }
        open.remove(node);
        total = Math.min(total, MAX_EXPANDED + 1);
        counted.put(node, total);
        return total;
    }

    /** The schema compiled in the registry, with every {@code $ref} resolved now rather than at a call. */
    private Schema compileNow(JsonNode schema) {
        Schema compiled = registry().getSchema(schema);
        compiled.initializeValidators();
        return compiled;
    }

    /** Loads the 2020-12 meta-schema and the validator's classes (~200 ms the first time). */
    void warmUp() {
        meta("https://json-schema.org/draft/2020-12/schema").validate(registry().getSchema(
                SchemaLocation.of("https://json-schema.org/draft/2020-12/schema")).getSchemaNode());
    }

    private Schema meta(String dialect) {
        return registry().getSchema(SchemaLocation.of(dialect));
    }

    private static String stripHash(String id) {
        return id.endsWith("#") ? id.substring(0, id.length() - 1) : id;
    }

    private static String oneLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t.getMessage() == null || t.getMessage().isBlank())) {
            t = t.getCause();
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }
}

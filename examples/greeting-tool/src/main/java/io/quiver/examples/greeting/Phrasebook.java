package io.quiver.examples.greeting;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;

/**
 * The greeting of each language, read from {@code greetings.properties} next to this class in the
 * bundle. Change that file, rebuild, overwrite the jar in {@code deploy/}, and the running server
 * greets with the new text.
 */
final class Phrasebook {

    private static final String RESOURCE = "greetings.properties";
    private static final String NAME = "{name}";

    private final Map<Language, String> templates;

    Phrasebook(Map<Language, String> templates) {
        for (Language language : Language.values()) {
            String template = templates.get(language);
            if (template == null || !template.contains(NAME)) {
                throw new IllegalArgumentException("no greeting with " + NAME + " for " + language);
            }
        }
        this.templates = Map.copyOf(templates);
    }

    /** The phrasebook shipped in the bundle. */
    static Phrasebook load() {
        Properties p = new Properties();
        try (InputStream in = Phrasebook.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the bundle");
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<Language, String> templates = new EnumMap<>(Language.class);
        for (Language language : Language.values()) {
            String template = p.getProperty(language.name());
            if (template != null) {
                templates.put(language, template.strip());
            }
        }
        return new Phrasebook(templates);
    }

    /** The greeting of a name in a language. */
    String greet(Language language, String name) {
        return templates.get(language).replace(NAME, name.strip());
    }
}

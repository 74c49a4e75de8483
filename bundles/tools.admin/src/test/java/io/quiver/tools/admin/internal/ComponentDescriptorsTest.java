package io.quiver.tools.admin.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quiver.api.schema.RecordSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The DS descriptors bnd generated: names, hints, configuration PID and the record types. */
class ComponentDescriptorsTest {

    private static Map<String, String> properties(String component) throws Exception {
        Path file = Path.of("target/classes/OSGI-INF/io.quiver.tools.admin.internal." + component + ".xml");
        Document doc;
        try (var in = Files.newInputStream(file)) {
            doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
        Map<String, String> properties = new HashMap<>();
        NodeList nodes = doc.getElementsByTagName("property");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element property = (Element) nodes.item(i);
            properties.put(property.getAttribute("name"), property.getAttribute("value"));
        }
        properties.put("configuration-pid", doc.getDocumentElement().getAttribute("configuration-pid"));
        return properties;
    }

    @Test
    void hints() throws Exception {
        Map<String, String> list = properties("BundlesListTool");
        assertEquals("bundles_list", list.get("mcp.tool.name"));
        assertEquals(List.of("true", "false", "true", "false"), hints(list));

        Map<String, String> install = properties("BundleInstallTool");
        assertEquals("bundle_install", install.get("mcp.tool.name"));
        assertEquals(List.of("false", "false", "true", "false"), hints(install));
        assertEquals(AdminConfig.PID, install.get("configuration-pid"));

        Map<String, String> uninstall = properties("BundleUninstallTool");
        assertEquals("bundle_uninstall", uninstall.get("mcp.tool.name"));
        assertEquals(List.of("false", "true", "true", "false"), hints(uninstall));
        assertEquals(AdminConfig.PID, uninstall.get("configuration-pid"));
    }

    /** readOnly, destructive, idempotent, openWorld. */
    private static List<String> hints(Map<String, String> p) {
        return List.of(p.get("mcp.tool.readOnlyHint"), p.get("mcp.tool.destructiveHint"),
                p.get("mcp.tool.idempotentHint"), p.get("mcp.tool.openWorldHint"));
    }

    @Test
    void argumentAndOutputRecordsMakeSchemas() throws Exception {
        assertEquals(BundleInstallTool.InstallArguments.class.getName(), properties("BundleInstallTool").get("mcp.tool.arguments"));
        assertEquals(BundleUninstallTool.UninstallArguments.class.getName(), properties("BundleUninstallTool").get("mcp.tool.arguments"));
        Map<String, Object> install = RecordSchemas.of(BundleInstallTool.InstallArguments.class);
        assertEquals(List.of("location"), install.get("required"));
        Map<String, Object> uninstall = RecordSchemas.of(BundleUninstallTool.UninstallArguments.class);
        assertEquals(Map.of("type", "integer", "description", "The bundle id, as bundles_list reports it"),
                ((Map<?, ?>) uninstall.get("properties")).get("id"));
        Map<String, Object> list = RecordSchemas.of(BundlesListTool.BundleList.class);
        assertTrue(list.toString().contains("symbolicName"), list.toString());
    }
}

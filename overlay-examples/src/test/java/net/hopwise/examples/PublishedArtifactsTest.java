package net.hopwise.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The POMs users' builds read: the BOM manages every published module at the build's version, and the
 * parent (which every module inherits) and the BOM (which has no parent) carry what Maven Central
 * requires. A module added to the build without its BOM entry, or a version set in one place only,
 * fails here rather than in a user's build.
 */
class PublishedArtifactsTest {
    /** Built by the reactor but not published: this module. */
    private static final List<String> UNPUBLISHED = List.of("overlay-examples", "hopwise-bom");

    private static Path root;
    private static Document parent;
    private static Document bom;

    @BeforeAll
    static void readThePoms() throws Exception {
        root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("mvnw")) || !Files.isDirectory(root.resolve("overlay-core"))) {
            root = root.getParent();
        }
        parent = read(root.resolve("pom.xml"));
        bom = read(root.resolve("hopwise-bom/pom.xml"));
    }

    @Test
    void theBomManagesEveryPublishedModuleAtTheBuildsVersion() {
        List<String> published = new ArrayList<>();
        for (Element module : children(child(parent.getDocumentElement(), "modules"), "module")) {
            if (!UNPUBLISHED.contains(module.getTextContent().trim())) {
                published.add(module.getTextContent().trim());
            }
        }
        assertThat(published).contains("overlay-core", "overlay-multicast", "overlay-voip", "overlay-admin");

        Element managed = child(child(bom.getDocumentElement(), "dependencyManagement"), "dependencies");
        List<String> inBom = new ArrayList<>();
        for (Element dependency : children(managed, "dependency")) {
            assertThat(text(dependency, "groupId")).isEqualTo("net.hopwise");
            assertThat(text(dependency, "version")).isEqualTo("${project.version}");
            inBom.add(text(dependency, "artifactId"));
        }
        assertThat(inBom).containsAll(published);
        assertThat(text(bom.getDocumentElement(), "version")).as("the BOM's version, set by hand")
                .isEqualTo(text(parent.getDocumentElement(), "version"));
        assertThat(child(bom.getDocumentElement(), "parent")).as("importing the BOM imports its parent's management")
                .isNull();
    }

    @Test
    void theParentAndTheBomCarryWhatCentralRequires() {
        for (Document pom : List.of(parent, bom)) {
            Element project = pom.getDocumentElement();
            for (String field : List.of("name", "description", "url")) {
                assertThat(text(project, field)).as(field).isNotBlank();
            }
            Element license = child(child(project, "licenses"), "license");
            assertThat(text(license, "name")).isNotBlank();
            assertThat(text(license, "url")).startsWith("https://");
            assertThat(text(child(child(project, "developers"), "developer"), "name")).isNotBlank();
            Element scm = child(project, "scm");
            for (String field : List.of("connection", "developerConnection", "url")) {
                assertThat(text(scm, field)).as("scm " + field).isNotBlank();
            }
        }
    }

    private static Document read(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile());
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }
}

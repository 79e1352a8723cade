package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import net.hopwise.admin.config.LinkSecurityReload;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.SecuritySetup;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.security.reload.SecurityFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service's node with keys from files, as an operator configures it: its link to a secured
 * neighbour is authenticated, the API and Prometheus show each link's security, and the API itself is
 * served over TLS with Spring Boot's own settings (docs/configuration.md).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability(tracing = false)
@ExtendWith(OutputCaptureExtension.class)
class LinkSecurityNodeTest {
    private static final String STORE_PASSWORD = "changeit";
    private static Path dir;
    private static OverlayNode b;
    private static String bFingerprint;

    @LocalServerPort
    int port;

    @Autowired
    ObjectMapper json;

    @Autowired
    LinkSecurityReload reload;

    @DynamicPropertySource
    static void overlay(DynamicPropertyRegistry registry) throws Exception {
        dir = Files.createTempDirectory("hopwise-link-security");
        NodeKeys gateway = NodeKeys.generate();
        NodeKeys bKeys = NodeKeys.generate();
        bFingerprint = bKeys.fingerprint();
        KeyFiles.writeNodeKeys(dir.resolve("gateway.key"), gateway);
        KeyFiles.writeNodeKeys(dir.resolve("b.key"), bKeys);
        Files.writeString(dir.resolve("trusted-keys"), TrustedKeys.line("gateway", gateway.identityPublic()) + "\n"
                + TrustedKeys.line("b", bKeys.identityPublic()) + "\n");
        int gatewayPort;
        try (java.net.DatagramSocket probe = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            gatewayPort = probe.getLocalPort();
        }
        // A secured node takes handshakes only from the neighbours it knows: b is told where gateway is.
        b = OverlayNode.start(NodeConfig.builder("b").loopback(0)
                .neighbour(NeighbourConfig.parse("gateway@127.0.0.1:" + gatewayPort))
                .module(new SecurityModule(SecuritySetup.trustedKeys(dir.resolve("b.key"), dir.resolve("trusted-keys"))
                        .load("b")))
                .build());
        Path store = dir.resolve("tls.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "admin", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", STORE_PASSWORD).redirectErrorStream(true).start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0)
                .as("keytool: %s", new String(keytool.getInputStream().readAllBytes())).isTrue();

        registry.add("hopwise.node.name", () -> "gateway");
        registry.add("hopwise.node.bind", () -> "127.0.0.1:" + gatewayPort);
        registry.add("hopwise.node.neighbours[0]", () -> "b@127.0.0.1:" + b.localAddress().getPort());
        registry.add("hopwise.node.hello.interval", () -> "50ms");
        registry.add("hopwise.link-security.key-file", () -> dir.resolve("gateway.key").toString());
        registry.add("hopwise.link-security.trusted-keys", () -> dir.resolve("trusted-keys").toString());
        registry.add("server.ssl.enabled", () -> "true");
        registry.add("server.ssl.key-store", () -> store.toString());
        registry.add("server.ssl.key-store-type", () -> "PKCS12");
        registry.add("server.ssl.key-store-password", () -> STORE_PASSWORD);
    }

    @AfterAll
    static void stop() throws Exception {
        b.stop();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** A client that trusts the service's own certificate, as an operator's would after importing it. */
    private HttpClient client() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(dir.resolve("tls.p12"))) {
            trust.load(in, STORE_PASSWORD.toCharArray());
        }
        X509Certificate cert = (X509Certificate) trust.getCertificate("admin");
        KeyStore onlyCert = KeyStore.getInstance("PKCS12");
        onlyCert.load(null, null);
        onlyCert.setCertificateEntry("admin", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(onlyCert);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(ssl).build();
    }

    private String get(HttpClient http, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }

    /** The security of gateway's end of its link to b. */
    private JsonNode gatewaySecurity(HttpClient http) throws Exception {
        for (JsonNode end : json.readTree(get(http, "/api/links/gateway/b")).get("ends")) {
            if (end.get("node").asText().equals("gateway")) {
                return end.get("measured").get("security");
            }
        }
        throw new AssertionError("no gateway end");
    }

    @Test
    void theLinkIsAuthenticatedAndTheApiOverTlsShowsItsSecurity() throws Exception {
        HttpClient http = client();
        Conditions.await("gateway~b authenticated", () -> {
            try {
                JsonNode sec = gatewaySecurity(http);
                return sec != null && sec.get("authenticated").asBoolean();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        JsonNode sec = gatewaySecurity(http);
        assertThat(sec.get("peerFingerprint").asText()).isEqualTo(bFingerprint);
        assertThat(sec.get("handshakes").asLong()).isPositive();
        assertThat(sec.get("forgeryDrops").asLong()).isZero();
        assertThat(get(http, "/actuator/prometheus"))
                .contains("hopwise_security_authenticated{node=\"gateway\",peer=\"b\"} 1.0")
                .contains("hopwise_security_handshakes_total{node=\"gateway\",peer=\"b\"}");
    }

    @Test
    void plainHttpAndUntrustedClientsGetNoAnswer() throws Exception {
        HttpClient plain = HttpClient.newHttpClient();
        HttpResponse<String> r = plain.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/topology"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("Tomcat answers plain HTTP on a TLS port with 400").isEqualTo(400);
        assertThat(r.body()).doesNotContain("gateway");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(
                URI.create("https://localhost:" + port + "/api/topology")).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    /**
     * The service re-reads its trusted-keys file while it runs: a broken edit is refused in the
     * daemon's WARNING line and the node keeps its list (its link stays), the repaired file is applied.
     */
    @Test
    void theTrustedKeysFileIsRereadWhileTheServiceRuns(CapturedOutput output) throws Exception {
        Path trusted = dir.resolve("trusted-keys");
        assertThat(reload.watched()).containsExactly(trusted);
        assertThat(reload.checkInterval()).isEqualTo(SecurityFiles.DEFAULT_CHECK_INTERVAL);
        String original = Files.readString(trusted);
        long later = System.currentTimeMillis() + 60_000;
        Files.writeString(trusted, "gateway ed25519:not-a-key\n");
        Files.setLastModifiedTime(trusted, java.nio.file.attribute.FileTime.fromMillis(later));
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(output.getAll()).contains("trusted-keys file " + trusted
                + " refused, the node keeps admitting by the list it had: ");

        Files.writeString(trusted, original);
        Files.setLastModifiedTime(trusted, java.nio.file.attribute.FileTime.fromMillis(later + 1000));
        reload.check().get(10, TimeUnit.SECONDS);
        // The periodic check may have read the change first: its line comes when the node has applied it.
        Conditions.await("the repaired list applied", () -> output.getAll().contains("trusted-keys file " + trusted
                + " applied: 2 names admitted; no link cut off"));
    }
}

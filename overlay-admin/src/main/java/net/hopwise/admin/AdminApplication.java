package net.hopwise.admin;

import io.swagger.v3.oas.annotations.OpenAPIDefinition;
import io.swagger.v3.oas.annotations.enums.SecuritySchemeType;
import io.swagger.v3.oas.annotations.info.Info;
import io.swagger.v3.oas.annotations.security.SecurityScheme;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.security.servlet.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * The Hopwise admin service: runs an overlay node (or, with no configuration, a demo overlay) and
 * serves its REST API, event stream, metrics and dashboard.
 *
 * <pre>java -jar overlay-admin.jar --hopwise.node.name=a --hopwise.node.bind=8100 \
 *     --hopwise.node.neighbours=b@192.0.2.7:8100 --hopwise.admin.security.token=...</pre>
 *
 * <p>{@code java -jar overlay-admin.jar keytool ...} makes the node's keys and certificates instead
 * (the same tool as the daemon jar's).
 */
// Spring Boot's generated default user would be a default credential: operators are configured, or there is none.
@SpringBootApplication(exclude = UserDetailsServiceAutoConfiguration.class)
@OpenAPIDefinition(info = @Info(title = "Hopwise admin API", version = "1",
        description = "Topology, link costs and statistics, routes, events and impairment of a Hopwise overlay,"
                + " as one node of it sees it. Every refusal, whatever refused it, is an RFC 7807 problem body"
                + " (application/problem+json) whose type names the case, the same on every endpoint:"
                + " urn:hopwise:problem:unknown-node, unknown-link, not-local, invalid-value, wrong-type,"
                + " unknown-field, malformed-body, authentication-required, forbidden, changes-disabled; refusals"
                + " that mean only their HTTP status (no such path, method or media type) are about:blank."
                + " Request bodies are strict: unknown fields, values of the wrong type and values out of range are"
                + " refused, each named."))
@SecurityScheme(name = "basic", type = SecuritySchemeType.HTTP, scheme = "basic")
@SecurityScheme(name = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer")
public class AdminApplication {
    private static final System.Logger LOG = System.getLogger(AdminApplication.class.getName());

    public static void main(String[] args) {
        Integer exit = command(args, System.out, System.err);
        if (exit != null) {
            System.exit(exit);
        }
        SpringApplication.run(AdminApplication.class, args);
    }

    /**
     * Runs a command given instead of the service ({@code keytool ...}: keys and certificates for the
     * node's links, as the daemon jar's) and returns its exit code; null when the arguments start the service.
     */
    static Integer command(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
        if (args.length > 0 && args[0].equals("keytool")) {
            return net.hopwise.overlay.daemon.KeyCommands.run(java.util.Arrays.copyOfRange(args, 1, args.length),
                    out, err);
        }
        return null;
    }

    /** Says where to look once the service is up: the first thing an operator needs. */
    @Bean
    ApplicationListener<ApplicationReadyEvent> announceAddress() {
        return event -> {
            if (event.getApplicationContext() instanceof WebServerApplicationContext web) {
                String base = "http://localhost:" + web.getWebServer().getPort();
                LOG.log(System.Logger.Level.INFO, "Hopwise admin ready: dashboard " + base + "/  API "
                        + base + "/swagger-ui.html  metrics " + base + "/actuator/prometheus");
            }
        };
    }
}

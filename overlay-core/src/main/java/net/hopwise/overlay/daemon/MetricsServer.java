package net.hopwise.overlay.daemon;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Serves a Prometheus registry at {@code /metrics} with the JDK's HTTP server: the node's
 * {@code hopwise.*} meters and the JVM's (memory, GC, threads, CPU, uptime), in the Prometheus text
 * format, or OpenMetrics when the scraper asks for it.
 *
 * <p>Only this class touches the Prometheus client, an optional dependency of overlay-core: the
 * daemon loads it only when {@code --metrics} is given.
 */
final class MetricsServer implements AutoCloseable {
    static final String PATH = "/metrics";
    private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    /** Pending connections: one scraper or two, and someone with curl. */
    private static final int BACKLOG = 8;

    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc;
    private final HttpServer server;

    private MetricsServer(PrometheusMeterRegistry registry, JvmGcMetrics gc, HttpServer server) {
        this.registry = registry;
        this.gc = gc;
        this.server = server;
    }

    /**
     * A registry for the node's meters, served at {@code address} from now on.
     *
     * @throws IOException when the address cannot be bound (a {@link java.net.BindException} when in use)
     */
    static MetricsServer start(InetSocketAddress address) throws IOException {
        HttpServer server = HttpServer.create(address, BACKLOG);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        server.createContext("/", exchange -> handle(registry, exchange));
        server.start();
        return new MetricsServer(registry, gc, server);
    }

    private static void handle(PrometheusMeterRegistry registry, HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                reply(exchange, 404, "text/plain; charset=utf-8", "not found: metrics are at " + PATH + "\n", true);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                reply(exchange, 405, "text/plain; charset=utf-8", "use GET\n", true);
                return;
            }
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            String type = accept != null && accept.contains("application/openmetrics-text") ? OPENMETRICS : TEXT;
            reply(exchange, 200, type, registry.scrape(type), method.equals("GET"));
        }
    }

    private static void reply(HttpExchange exchange, int status, String type, String body, boolean withBody)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, withBody ? bytes.length : -1);
        if (withBody) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The bound address, with the real port when port 0 was asked for. */
    InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        gc.close();
        registry.close();
    }
}

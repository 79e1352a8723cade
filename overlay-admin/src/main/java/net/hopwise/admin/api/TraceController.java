package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.overlay.OverlayException;
import net.hopwise.admin.overlay.OverlayView;
import net.hopwise.admin.overlay.TraceView;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.trace.TraceService;
import org.springframework.beans.TypeMismatchException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Traces the service's node's route to another node. The answer is asynchronous: no servlet thread
 * waits while probes cross the overlay, and a trace that does not finish in time is a 504.
 */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
@Tag(name = "overlay", description = "The overlay as the service's node sees it")
public class TraceController {
    private final OverlayView view;
    private final Duration timeout;

    public TraceController(OverlayView view, HopwiseProperties properties) {
        this.view = view;
        this.timeout = properties.getAdmin().getTraceTimeout();
    }

    @GetMapping("/trace/{node}")
    @Operation(summary = "Traces the route from the service's node to another under a metric",
            description = "Probes each hop of the route the service's node uses under the metric: per hop the"
                    + " node, the cost routing gives the link to it (null when infinite), that link's RTT as the"
                    + " previous hop measures it and the round trip of the probe from the service's node (null"
                    + " when unanswered). A known node without a route is 200 with reached false and the error."
                    + " 404 (urn:hopwise:problem:unknown-node) for a node not known, 400 for a metric that is not"
                    + " one of HOPS, LATENCY, LOSS, EXPECTED_LATENCY (any case) and for the service's own node,"
                    + " 504 (urn:hopwise:problem:trace-timeout) when the trace does not finish within"
                    + " hopwise.admin.trace-timeout.")
    public CompletableFuture<TraceView> trace(@PathVariable String node,
            @Parameter(description = "The metric whose route is traced, any case; the node's default metric"
                    + " when left out") @RequestParam(required = false) String metric) {
        OverlayNode self = view.nodes().self();
        RoutingMetric m = metric == null ? self.config().defaultMetric() : metric(metric);
        if (!view.snapshot().knows(node)) {
            throw OverlayException.unknownNode(node);
        }
        if (node.equals(self.name())) {
            throw new IllegalArgumentException("a node does not trace itself: " + node);
        }
        return self.module(TraceService.class).trace(node, m)
                .thenApply(TraceView::of)
                .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
                .exceptionally(e -> {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    if (cause instanceof TimeoutException) {
                        throw OverlayException.traceTimeout(node, timeout);
                    }
                    throw e instanceof CompletionException c ? c : new CompletionException(e);
                });
    }

    /** A metric by name in any case, refused as the routes endpoint refuses one: a 400 naming the parameter. */
    static RoutingMetric metric(String name) {
        String upper = name.trim().toUpperCase(Locale.ROOT);
        for (RoutingMetric m : RoutingMetric.values()) {
            if (m.name().equals(upper)) {
                return m;
            }
        }
        TypeMismatchException e = new TypeMismatchException(name, RoutingMetric.class);
        e.initPropertyName("metric");
        throw e;
    }
}

package net.hopwise.admin.overlay;

import io.micrometer.core.instrument.MeterRegistry;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.config.NodeSettings;
import net.hopwise.admin.config.InvalidSettingsException;
import net.hopwise.admin.config.LinkSecuritySettings;
import net.hopwise.overlay.OverlayNode;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Starts the overlay (one configured node, or the demo) and the parts that watch it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(HopwiseProperties.class)
public class OverlayConfiguration {
    private static final System.Logger LOG = System.getLogger(OverlayConfiguration.class.getName());

    @Bean(destroyMethod = "close")
    LocalNodes localNodes(HopwiseProperties properties, MeterRegistry registry) {
        if (properties.demoMode()) {
            if (properties.getNode().getName() != null) {
                throw new InvalidSettingsException(java.util.List.of("hopwise.demo.enabled: the demo runs its own nodes;"
                        + " remove hopwise.node.name (" + properties.getNode().getName() + ") or set"
                        + " hopwise.demo.enabled=false"));
            }
            if (!properties.getMulticast().isEnabled()) {
                throw new InvalidSettingsException(java.util.List.of("hopwise.multicast.enabled=false: the demo's"
                        + " nodes always run multicast (its layered session and groups); remove the setting or set"
                        + " hopwise.demo.enabled=false"));
            }
            net.hopwise.multicast.layered.RelayQueueing demoQueueing = properties.getMulticast().relayQueueing();
            LocalNodes nodes = DemoOverlay.start(registry, properties.getDemo().getTrafficInterval(),
                    new LinkImpairments((link, change) -> { })::apply);
            applyRelayQueueing(nodes.all().values(), demoQueueing, properties);
            LOG.log(System.Logger.Level.INFO, "demo overlay started: nodes " + String.join(", ", nodes.all().keySet())
                    + "; this service's node is " + nodes.self().name());
            return nodes;
        }
        net.hopwise.overlay.NodeConfig config = NodeSettings.toNodeConfig(properties.getNode(), registry);
        net.hopwise.overlay.security.SecurityConfig security =
                LinkSecuritySettings.toSecurityConfig(properties.getLinkSecurity(), config.name());
        if (security != null) {
            config = config.toBuilder().module(new net.hopwise.overlay.security.SecurityModule(security)).build();
        }
        net.hopwise.multicast.layered.RelayQueueing relayQueueing = properties.getMulticast().relayQueueing();
        if (properties.getMulticast().isEnabled()) {
            config = config.toBuilder().module(new net.hopwise.multicast.MulticastModule()).build();
        }
        if (properties.getVoip().isEnabled()) {
            // The relay publishes its phones' registrations through it, and finds other sites' by it.
            config = config.toBuilder().module(new net.hopwise.voip.relay.RegistrationDirectory()).build();
        }
        OverlayNode node = OverlayNode.start(config);
        LOG.log(System.Logger.Level.INFO, "overlay node " + node.name() + " listening on UDP " + node.localAddress());
        applyRelayQueueing(java.util.List.of(node), relayQueueing, properties);
        if (security == null) {
            // Loud on purpose: an open overlay must be a choice someone sees, not a default nobody noticed.
            LOG.log(System.Logger.Level.WARNING, "node " + node.name() + ": links are NOT authenticated or encrypted "
                    + "(hopwise.link-security.insecure=true): any host that reaches UDP port "
                    + node.localAddress().getPort() + " can join the overlay, inject traffic and read every payload");
        } else {
            LOG.log(System.Logger.Level.INFO, "node " + node.name() + ": links authenticated and encrypted ("
                    + security.cipherSuite().protocolName() + "), identity key " + security.keys().fingerprint());
        }
        return LocalNodes.single(node);
    }

    /** Gives {@code nodes} the relay queueing the settings ask for, when they ask for fair queuing at all. */
    private static void applyRelayQueueing(java.util.Collection<OverlayNode> nodes,
            net.hopwise.multicast.layered.RelayQueueing queueing, HopwiseProperties properties) {
        if (properties.getMulticast().getRelayQueueingRate() == 0) {
            return;
        }
        for (OverlayNode n : nodes) {
            n.module(net.hopwise.multicast.layered.LayeredMulticast.class).relayQueueing(queueing);
            LOG.log(System.Logger.Level.INFO, "node " + n.name() + ": layered multicast paced at "
                    + properties.getMulticast().getRelayQueueingRate() + " bit/s per outgoing link, fair-queued per session");
        }
    }

    @Bean
    LinkRates linkRates() {
        return new LinkRates();
    }

    @Bean
    OverlayView overlayView(LocalNodes nodes, LinkRates rates) {
        return new OverlayView(nodes, rates);
    }

    @Bean(destroyMethod = "close")
    OverlayEvents overlayEvents(OverlayView view, HopwiseProperties properties) {
        return new OverlayEvents(view, properties.getAdmin().getEventHistorySize());
    }

    @Bean(destroyMethod = "close")
    LinkHistory linkHistory(OverlayView view, LinkRates rates, OverlayEvents events, HopwiseProperties properties) {
        return new LinkHistory(view, rates, events, properties.getAdmin().getSampleInterval(),
                properties.getAdmin().getHistorySize());
    }

    @Bean("overlay")
    OverlayHealthIndicator overlayHealth(OverlayView view) {
        return new OverlayHealthIndicator(view);
    }

    @Bean
    LinkImpairments linkImpairments(OverlayEvents events) {
        return new LinkImpairments(events::impairment);
    }
}

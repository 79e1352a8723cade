package net.hopwise.admin.voip;

import io.micrometer.core.instrument.MeterRegistry;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.overlay.LocalNodes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Runs the SIP relay beside the service's node when {@code hopwise.voip.enabled} is set. */
@Configuration(proxyBeanMethods = false)
public class VoipConfiguration {
    private static final System.Logger LOG = System.getLogger(VoipConfiguration.class.getName());

    @Bean(destroyMethod = "close")
    VoipRelay voipRelay(HopwiseProperties properties, LocalNodes nodes, MeterRegistry registry) {
        VoipRelay relay = VoipRelay.start(properties.getVoip(), nodes.self(), registry);
        relay.relay().ifPresent(r -> LOG.log(System.Logger.Level.INFO, "SIP relay of node " + nodes.self().name()
                + " listening on " + r.sipAddress()));
        return relay;
    }
}

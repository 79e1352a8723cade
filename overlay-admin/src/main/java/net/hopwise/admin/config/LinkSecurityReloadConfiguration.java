package net.hopwise.admin.config;

import net.hopwise.admin.overlay.LocalNodes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Re-reads the service's node's security files while it runs ({@link LinkSecurityReload}), once the
 * node is up: beside the overlay's configuration, which starts the node from the same settings.
 */
@Configuration(proxyBeanMethods = false)
public class LinkSecurityReloadConfiguration {
    @Bean(destroyMethod = "close")
    LinkSecurityReload linkSecurityReload(LocalNodes nodes, HopwiseProperties properties) {
        if (nodes.demo()) {
            return LinkSecurityReload.none();
        }
        System.Logger logger = System.getLogger(LinkSecurityReload.class.getName());
        return LinkSecurityReload.start(properties.getLinkSecurity(), nodes.self(), logger::log, true);
    }
}

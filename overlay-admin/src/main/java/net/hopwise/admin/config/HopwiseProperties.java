package net.hopwise.admin.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.TransportKind;
import net.hopwise.overlay.routing.RoutingMetric;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Everything the admin service reads under {@code hopwise.*}, from application.yml, the environment
 * ({@code HOPWISE_NODE_NAME}) or the command line ({@code --hopwise.node.name=a}).
 *
 * <p>Node settings left unset are null and take overlay-core's defaults, so each default is declared
 * once, in the core. {@link NodeSettings} turns these values into a {@code NodeConfig} and names
 * every bad one.
 */
@ConfigurationProperties("hopwise")
@Validated
public class HopwiseProperties {
    @Valid
    private final Node node = new Node();
    @Valid
    private final Demo demo = new Demo();
    @Valid
    private final AdminProperties admin = new AdminProperties();
    private final VoipProperties voip = new VoipProperties();
    private final LinkSecurityProperties linkSecurity = new LinkSecurityProperties();
    private final MulticastProperties multicast = new MulticastProperties();

    public Node getNode() {
        return node;
    }

    public Demo getDemo() {
        return demo;
    }

    public AdminProperties getAdmin() {
        return admin;
    }

    public VoipProperties getVoip() {
        return voip;
    }

    public LinkSecurityProperties getLinkSecurity() {
        return linkSecurity;
    }

    public MulticastProperties getMulticast() {
        return multicast;
    }

    /** True when the service runs the in-process demo overlay rather than one configured node. */
    public boolean demoMode() {
        return demo.enabled != null ? demo.enabled : node.name == null;
    }

    /** The node this service runs; see {@code docs/configuration.md} for each field. */
    public static class Node {
        private String name;
        /** host:port, [v6]:port, or a bare port (all interfaces). */
        private String bind;
        private List<String> neighbours = new ArrayList<>();
        private RoutingMetric defaultMetric;
        private Integer hopLimit;
        private Integer maxMessageBytes;
        private Long reassemblyBufferBytes;
        private Duration reassemblyTimeout;
        private Integer sendQueueLimit;
        private Integer socketBufferBytes;
        private TransportKind transport;
        private Long impairmentSeed;
        private final Hello hello = new Hello();
        private final Routing routing = new Routing();

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getBind() {
            return bind;
        }

        public void setBind(String bind) {
            this.bind = bind;
        }

        public List<String> getNeighbours() {
            return neighbours;
        }

        public void setNeighbours(List<String> neighbours) {
            this.neighbours = neighbours;
        }

        public RoutingMetric getDefaultMetric() {
            return defaultMetric;
        }

        public void setDefaultMetric(RoutingMetric defaultMetric) {
            this.defaultMetric = defaultMetric;
        }

        public Integer getHopLimit() {
            return hopLimit;
        }

        public void setHopLimit(Integer hopLimit) {
            this.hopLimit = hopLimit;
        }

        public Integer getMaxMessageBytes() {
            return maxMessageBytes;
        }

        public void setMaxMessageBytes(Integer maxMessageBytes) {
            this.maxMessageBytes = maxMessageBytes;
        }

        public Long getReassemblyBufferBytes() {
            return reassemblyBufferBytes;
        }

        public void setReassemblyBufferBytes(Long reassemblyBufferBytes) {
            this.reassemblyBufferBytes = reassemblyBufferBytes;
        }

        public Duration getReassemblyTimeout() {
            return reassemblyTimeout;
        }

        public void setReassemblyTimeout(Duration reassemblyTimeout) {
            this.reassemblyTimeout = reassemblyTimeout;
        }

        public Integer getSendQueueLimit() {
            return sendQueueLimit;
        }

        public void setSendQueueLimit(Integer sendQueueLimit) {
            this.sendQueueLimit = sendQueueLimit;
        }

        public Integer getSocketBufferBytes() {
            return socketBufferBytes;
        }

        public void setSocketBufferBytes(Integer socketBufferBytes) {
            this.socketBufferBytes = socketBufferBytes;
        }

        public TransportKind getTransport() {
            return transport;
        }

        public void setTransport(TransportKind transport) {
            this.transport = transport;
        }

        public Long getImpairmentSeed() {
            return impairmentSeed;
        }

        public void setImpairmentSeed(Long impairmentSeed) {
            this.impairmentSeed = impairmentSeed;
        }

        public Hello getHello() {
            return hello;
        }

        public Routing getRouting() {
            return routing;
        }
    }

    /** The hello protocol ({@code HelloConfig}); unset fields keep the core's defaults. */
    public static class Hello {
        private Duration interval;
        private Integer deadCount;
        private Integer upCount;
        private Duration downInterval;

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public Integer getDeadCount() {
            return deadCount;
        }

        public void setDeadCount(Integer deadCount) {
            this.deadCount = deadCount;
        }

        public Integer getUpCount() {
            return upCount;
        }

        public void setUpCount(Integer upCount) {
            this.upCount = upCount;
        }

        public Duration getDownInterval() {
            return downInterval;
        }

        public void setDownInterval(Duration downInterval) {
            this.downInterval = downInterval;
        }
    }

    /** Link-state routing ({@code RoutingConfig}); unset fields keep the core's defaults. */
    public static class Routing {
        private Duration floodRetransmitInterval;
        private Duration floodPacingInterval;
        private Duration refreshInterval;
        private Duration maxAge;
        private Duration minRecomputeInterval;
        private Duration minReadvertiseInterval;
        private Double expectedLatencyDeadlineMillis;
        private Double expectedLatencyDeltaMillis;

        public Duration getFloodRetransmitInterval() {
            return floodRetransmitInterval;
        }

        public void setFloodRetransmitInterval(Duration floodRetransmitInterval) {
            this.floodRetransmitInterval = floodRetransmitInterval;
        }

        public Duration getFloodPacingInterval() {
            return floodPacingInterval;
        }

        public void setFloodPacingInterval(Duration floodPacingInterval) {
            this.floodPacingInterval = floodPacingInterval;
        }

        public Duration getRefreshInterval() {
            return refreshInterval;
        }

        public void setRefreshInterval(Duration refreshInterval) {
            this.refreshInterval = refreshInterval;
        }

        public Duration getMaxAge() {
            return maxAge;
        }

        public void setMaxAge(Duration maxAge) {
            this.maxAge = maxAge;
        }

        public Duration getMinRecomputeInterval() {
            return minRecomputeInterval;
        }

        public void setMinRecomputeInterval(Duration minRecomputeInterval) {
            this.minRecomputeInterval = minRecomputeInterval;
        }

        public Duration getMinReadvertiseInterval() {
            return minReadvertiseInterval;
        }

        public void setMinReadvertiseInterval(Duration minReadvertiseInterval) {
            this.minReadvertiseInterval = minReadvertiseInterval;
        }

        public Double getExpectedLatencyDeadlineMillis() {
            return expectedLatencyDeadlineMillis;
        }

        public void setExpectedLatencyDeadlineMillis(Double expectedLatencyDeadlineMillis) {
            this.expectedLatencyDeadlineMillis = expectedLatencyDeadlineMillis;
        }

        public Double getExpectedLatencyDeltaMillis() {
            return expectedLatencyDeltaMillis;
        }

        public void setExpectedLatencyDeltaMillis(Double expectedLatencyDeltaMillis) {
            this.expectedLatencyDeltaMillis = expectedLatencyDeltaMillis;
        }
    }

    /** The in-process demo overlay. */
    public static class Demo {
        /** Null: on exactly when no {@code hopwise.node.name} is configured. */
        private Boolean enabled;
        /**
         * Pause between two rounds of demo traffic (each node sends one message a round): 50 ms gives
         * every link a visible, changing throughput of some hundreds of kbit/s at next to no cost.
         */
        @NotNull
        private Duration trafficInterval = Duration.ofMillis(50);

        public Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(Boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getTrafficInterval() {
            return trafficInterval;
        }

        public void setTrafficInterval(Duration trafficInterval) {
            this.trafficInterval = trafficInterval;
        }
    }
}

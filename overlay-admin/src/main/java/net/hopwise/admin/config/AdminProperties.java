package net.hopwise.admin.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/** The service itself: sampling of link statistics, history, security. */
public class AdminProperties {
    /**
     * How long {@code GET /api/trace} waits for a trace: well above the trace's own 2 s probe
     * timeout, so only a trace that is stuck is cut short, and below Tomcat's 30 s async timeout.
     */
    public static final Duration DEFAULT_TRACE_TIMEOUT = Duration.ofSeconds(10);
    /** Tomcat ends an asynchronous request after 30 s by default: a longer wait would never be seen. */
    public static final Duration MAX_TRACE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How often link statistics are sampled for the time series and throughput: once a second
     * matches what a person can follow on a chart and the hello protocol's measurement pace.
     */
    @NotNull
    private Duration sampleInterval = Duration.ofSeconds(1);
    /** Samples kept per link: 600 at one a second is the last ten minutes. */
    @Min(2)
    @Max(100_000)
    private int historySize = 600;
    /** Events kept for clients that connect late or reconnect: enough for a burst of reroutes. */
    @Min(1)
    @Max(100_000)
    private int eventHistorySize = 500;
    private Duration traceTimeout = DEFAULT_TRACE_TIMEOUT;
    @Valid
    private final Security security = new Security();
    /** Names of multicast groups the API and dashboard name (group ids are hashes of names). */
    private java.util.List<String> multicastGroups = new java.util.ArrayList<>();

    public java.util.List<String> getMulticastGroups() {
        return multicastGroups;
    }

    public void setMulticastGroups(java.util.List<String> multicastGroups) {
        this.multicastGroups = multicastGroups;
    }

    public Duration getSampleInterval() {
        return sampleInterval;
    }

    public void setSampleInterval(Duration sampleInterval) {
        this.sampleInterval = sampleInterval;
    }

    public int getHistorySize() {
        return historySize;
    }

    public void setHistorySize(int historySize) {
        this.historySize = historySize;
    }

    public int getEventHistorySize() {
        return eventHistorySize;
    }

    public void setEventHistorySize(int eventHistorySize) {
        this.eventHistorySize = eventHistorySize;
    }

    public Duration getTraceTimeout() {
        return traceTimeout;
    }

    public void setTraceTimeout(Duration traceTimeout) {
        if (traceTimeout == null || traceTimeout.isNegative() || traceTimeout.isZero()
                || traceTimeout.compareTo(MAX_TRACE_TIMEOUT) > 0) {
            throw new IllegalArgumentException("must be more than 0 and at most " + MAX_TRACE_TIMEOUT.toSeconds()
                    + " s, got " + traceTimeout);
        }
        this.traceTimeout = traceTimeout;
    }

    public Security getSecurity() {
        return security;
    }

    /**
     * Who may change the overlay. Mutating endpoints need a bearer token or basic credentials; with
     * neither configured they are disabled, except in the demo, which has the documented credentials
     * demo / demo.
     */
    public static class Security {
        private String token;
        private String username;
        private String password;
        /** Reads are open by default: topology and statistics are what an operator's screens show. */
        private boolean readsRequireAuth;

        public String getToken() {
            return token;
        }

        public void setToken(String token) {
            this.token = token;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public boolean isReadsRequireAuth() {
            return readsRequireAuth;
        }

        public void setReadsRequireAuth(boolean readsRequireAuth) {
            this.readsRequireAuth = readsRequireAuth;
        }
    }
}

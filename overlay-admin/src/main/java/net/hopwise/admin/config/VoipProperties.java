package net.hopwise.admin.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The SIP relay the service may run beside its node ({@code hopwise.voip.*}). Off unless enabled;
 * left unset, each value takes overlay-voip's default ({@code RelayConfig}), declared once there.
 */
public class VoipProperties {
    private boolean enabled;
    /** Where the relay takes SIP from its site's phones: host:port; unset, RelayConfig's 0.0.0.0:5060. */
    private String sipAddress;
    /** The host put in Via, Record-Route and Contact; unset, the SIP address's (or this machine's). */
    private String advertisedHost;
    /** The address phones are told to send media to; unset, the advertised host. */
    private String mediaAddress;
    private Boolean tcp;
    private Integer mediaPortMin;
    private Integer mediaPortMax;
    /** Dial-plan rules, each "domain-or-prefix=node" as overlay-voip's DialPlan reads them. */
    private List<String> routes = new ArrayList<>();
    private Duration mediaTimeout;
    private Duration linger;
    /** Calls at most at once, over which a new INVITE gets 503; unset, RelayConfig's (no limit but the ports). */
    private Integer maxCalls;
    /** The Retry-After of that 503; unset, RelayConfig's. */
    private Duration retryAfter;
    /** SIP requests a phone address may send in 2 s before it is dropped unanswered; 0 (the default): no limit. */
    private int requestRateLimit;
    /** How long an address over that limit stays dropped after its last request over it. */
    private Duration requestRateBlock = Duration.ofSeconds(60);
    /**
     * Delay of the access networks on both sides, added to the relay's own one-way delay in each call's
     * E-model R and MOS (the API's, the meters' and the call records'); RelayConfig's default, none.
     */
    private Duration accessDelay = net.hopwise.voip.relay.RelayConfig.DEFAULT_ACCESS_DELAY;
    /** The JSON Lines file each ended call's record is appended to; unset (the default), calls are not recorded. */
    private String callRecords;
    /**
     * The phones' media sockets on the node's loop for the first calls and on a thread of their own
     * beyond (auto), always on that thread (on, or true) or on the node's loop (off, or false); unset,
     * RelayConfig's.
     */
    private String mediaThread;
    /** With auto, the calls on the node's loop before the media thread takes the next; unset, RelayConfig's. */
    private Integer mediaThreadCalls;
    /** The deadline of a stream whose phones name no packet time; unset, RelayConfig's (100 ms). */
    private Duration mediaDeadline;
    /** Packets of the phones' a=ptime in a stream's deadline, 0 for one deadline for all; unset, RelayConfig's (5). */
    private Integer mediaDeadlinePackets;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getSipAddress() {
        return sipAddress;
    }

    public void setSipAddress(String sipAddress) {
        this.sipAddress = sipAddress;
    }

    public String getAdvertisedHost() {
        return advertisedHost;
    }

    public void setAdvertisedHost(String advertisedHost) {
        this.advertisedHost = advertisedHost;
    }

    public String getMediaAddress() {
        return mediaAddress;
    }

    public void setMediaAddress(String mediaAddress) {
        this.mediaAddress = mediaAddress;
    }

    public Boolean getTcp() {
        return tcp;
    }

    public void setTcp(Boolean tcp) {
        this.tcp = tcp;
    }

    public Integer getMediaPortMin() {
        return mediaPortMin;
    }

    public void setMediaPortMin(Integer mediaPortMin) {
        this.mediaPortMin = mediaPortMin;
    }

    public Integer getMediaPortMax() {
        return mediaPortMax;
    }

    public void setMediaPortMax(Integer mediaPortMax) {
        this.mediaPortMax = mediaPortMax;
    }

    public List<String> getRoutes() {
        return routes;
    }

    public void setRoutes(List<String> routes) {
        this.routes = routes;
    }

    public Duration getMediaTimeout() {
        return mediaTimeout;
    }

    public void setMediaTimeout(Duration mediaTimeout) {
        this.mediaTimeout = mediaTimeout;
    }

    public Duration getLinger() {
        return linger;
    }

    public void setLinger(Duration linger) {
        this.linger = linger;
    }

    public Integer getMaxCalls() {
        return maxCalls;
    }

    public void setMaxCalls(Integer maxCalls) {
        this.maxCalls = maxCalls;
    }

    public int getRequestRateLimit() {
        return requestRateLimit;
    }

    public void setRequestRateLimit(int requestRateLimit) {
        this.requestRateLimit = requestRateLimit;
    }

    public Duration getRequestRateBlock() {
        return requestRateBlock;
    }

    public void setRequestRateBlock(Duration requestRateBlock) {
        this.requestRateBlock = requestRateBlock;
    }

    public Duration getRetryAfter() {
        return retryAfter;
    }

    public void setRetryAfter(Duration retryAfter) {
        this.retryAfter = retryAfter;
    }

    public Duration getAccessDelay() {
        return accessDelay;
    }

    public void setAccessDelay(Duration accessDelay) {
        this.accessDelay = accessDelay;
    }

    public String getCallRecords() {
        return callRecords;
    }

    public void setCallRecords(String callRecords) {
        this.callRecords = callRecords;
    }

    public String getMediaThread() {
        return mediaThread;
    }

    public void setMediaThread(String mediaThread) {
        this.mediaThread = mediaThread;
    }

    public Integer getMediaThreadCalls() {
        return mediaThreadCalls;
    }

    public void setMediaThreadCalls(Integer mediaThreadCalls) {
        this.mediaThreadCalls = mediaThreadCalls;
    }

    public Duration getMediaDeadline() {
        return mediaDeadline;
    }

    public void setMediaDeadline(Duration mediaDeadline) {
        this.mediaDeadline = mediaDeadline;
    }

    public Integer getMediaDeadlinePackets() {
        return mediaDeadlinePackets;
    }

    public void setMediaDeadlinePackets(Integer mediaDeadlinePackets) {
        this.mediaDeadlinePackets = mediaDeadlinePackets;
    }
}

package net.hopwise.multicast;

import java.util.ArrayList;
import java.util.List;

/** What one local member received, in order. */
final class Inbox implements MessageHandler {
    final List<MulticastMessage> messages = new ArrayList<>();

    @Override
    public synchronized void onMessage(MulticastMessage message) {
        messages.add(message);
    }

    synchronized List<String> texts() {
        return messages.stream().map(m -> new String(m.payload(), java.nio.charset.StandardCharsets.UTF_8)).toList();
    }

    synchronized int size() {
        return messages.size();
    }
}

package org.edgelab.cache.server;

import org.edgelab.storage.contract.BlockingCalls;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails every cache-server test during which one of the server's (or the origin's) Netty event
 * loops made a blocking call: BlockHound is installed before the first test class and checked
 * after each test and each class (servers are closed in {@code @AfterAll}). Registered for every
 * test of this module by JUnit's extension auto-detection ({@code junit-platform.properties}).
 */
public final class NoBlockingOnEventLoops implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        BlockingCalls.install();
        BlockingCalls.drain();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        BlockingCalls.assertNone(context.getDisplayName() + " in " + context.getRequiredTestClass().getSimpleName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        BlockingCalls.assertNone("the set-up or tear-down of " + context.getDisplayName());
    }
}

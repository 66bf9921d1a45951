package org.edgelab.storage.api;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * storage-api's class path (its own and what it brings to every engine) holds neither Netty nor
 * picocli: common has them as optional dependencies, for the modules that use its transport, HTTP
 * and command-line pieces. The architecture module checks that no storage class refers to them.
 */
class NettyFreeClassPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"io.netty.buffer.ByteBuf", "io.netty.channel.Channel", "io.netty.handler.codec.http.HttpHeaders",
            "picocli.CommandLine"})
    void optionalDependenciesOfCommonDoNotComeAlong(String className) {
        assertThatThrownBy(() -> Class.forName(className, false, getClass().getClassLoader()))
                .isInstanceOf(ClassNotFoundException.class);
    }
}

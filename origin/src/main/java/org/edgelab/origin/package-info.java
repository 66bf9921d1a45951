/**
 * The EdgeLab origin: {@link org.edgelab.origin.OriginServer} started from an
 * {@link org.edgelab.origin.OriginConfig}, reporting {@link org.edgelab.origin.OriginStats}.
 */
package org.edgelab.origin;

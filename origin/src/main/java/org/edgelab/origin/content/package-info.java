/** Synthetic object bytes as a pure function of (id, offset), their URL layout, and the verifier clients check them with. */
package org.edgelab.origin.content;

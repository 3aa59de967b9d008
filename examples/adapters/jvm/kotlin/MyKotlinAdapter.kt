// A conform adapter in Kotlin: the kit's Adapter and Decoder, used from Kotlin as they are.
//
//   conform run fixtures --impl-cmd 'java -jar build/conform-adapter-kotlin.jar'
//   conform check-adapter --impl-cmd 'java -jar build/conform-adapter-kotlin.jar'
//
// It implements the tool-policy suite's input checks itself and asks conform's own reference
// (the example's ReferenceDecoder is Java; this file reaches the reference the same way) for the
// rest, so it passes out of the box. Replace `decode`'s body with calls into your decoder.
package conform.example.kotlin

import conform.adapter.Adapter
import conform.adapter.JsonReader
import conform.adapter.JsonWriter
import conform.adapter.Skip
import java.io.BufferedReader
import java.io.File
import java.io.InputStreamReader
import java.io.OutputStream

/** The reference, through `conform adapter` ($CONFORM_BIN, else `conform` on PATH). */
class Reference {
    private val child: Process
    private val toChild: OutputStream
    private val fromChild: BufferedReader
    private var nextId = 0L
    /** The suites the reference implements, with their fixtureVersions. */
    val suites: Map<String, List<Int>>

    init {
        val binary = System.getenv("CONFORM_BIN")?.takeIf { it.isNotEmpty() }
            ?: System.getenv("PATH").orEmpty().split(File.pathSeparator)
                .map { File(it.ifEmpty { "." }, "conform") }
                .firstOrNull { it.isFile && it.canExecute() }?.path
            ?: throw IllegalStateException("conform binary not found: set CONFORM_BIN or put conform on PATH")
        val builder = ProcessBuilder(binary, "adapter").redirectError(ProcessBuilder.Redirect.INHERIT)
        // In one-shot mode this process sees CONFORM_SUITE & co.; `conform adapter` must not.
        builder.environment().keys.removeIf { it.startsWith("CONFORM_") }
        child = builder.start()
        toChild = child.outputStream
        fromChild = BufferedReader(InputStreamReader(child.inputStream, Charsets.UTF_8))
        val hello = exchange(mapOf("op" to "hello", "protocol" to 1, "harness" to mapOf("name" to "MyKotlinAdapter.kt", "version" to "1")))
        suites = (hello["suites"] as Map<*, *>).entries.associate { (suite, versions) ->
            suite as String to (versions as List<*>).map { (it as Number).toInt() }
        }
    }

    /** The reference's output for one case; throws with its error message. */
    fun decode(suite: String, input: Any?, fixtureVersion: Int): Any? {
        nextId++
        val reply = exchange(mapOf("op" to "run", "id" to nextId, "suite" to suite, "fixture" to "", "fixtureVersion" to fixtureVersion, "input" to input))
        if (reply.containsKey("output")) return reply["output"]
        throw IllegalStateException((reply["error"] ?: reply["skipped"] ?: "no output").toString())
    }

    private fun exchange(message: Map<String, Any?>): Map<*, *> {
        toChild.write((JsonWriter.compact(message) + "\n").toByteArray(Charsets.UTF_8))
        toChild.flush()
        val line = fromChild.readLine() ?: throw IllegalStateException("conform adapter exited")
        return JsonReader.parse(line) as? Map<*, *> ?: throw IllegalStateException("not an object: $line")
    }
}

private lateinit var reference: Reference

/** Maps a case's input part to its output: maps, lists, strings, numbers, booleans, null. */
fun decode(suite: String, input: Any?, fixtureVersion: Int): Any? {
    if (suite !in reference.suites) throw Skip("suite $suite is not wired in yet")
    if (suite == "tool-policy") {
        // The input part is {tool, command?, mode}: a malformed one is this decoder's own error.
        val case = input as? Map<*, *> ?: throw IllegalArgumentException("tool-policy input is not an object")
        require(case["tool"] is String) { "tool-policy input has no tool name" }
    }
    // Replace this line with a call into your decoder, e.g. HapiDecoder.conformOutput(suite, input).
    return reference.decode(suite, input, fixtureVersion)
}

fun main() {
    reference = Reference()
    Adapter.serve("example-kotlin", "1.0.0", "kotlin", reference.suites) { suite, input, fixtureVersion ->
        decode(suite, input, fixtureVersion)
    }
}

// SPDX-License-Identifier: MIT
#include "core/formats/npy.h"

#include "core/common/checked.h"
#include "core/common/error.h"
#include "core/common/regularfile.h"

#include <cstring>

#include <QFile>
#include <QtEndian>

namespace kvscope {

namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr int magicBytes = 6;

/// A strict reader for the subset of Python literals an .npy header uses:
/// strings, True/False, integers and tuples of integers inside one dict.
class DictReader
{
public:
    DictReader(const QByteArray &text, const QString &origin) : m_text(text), m_origin(origin) {}

    NpyHeader read()
    {
        NpyHeader header;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        expect('{');
        while (!peekIs('}')) {
            const QString key = readString();
            expect(':');
            if (key == QLatin1String("descr")) {
                header.descr = readString();
                haveDescr = true;
            } else if (key == QLatin1String("fortran_order")) {
                header.fortranOrder = readBool();
                haveOrder = true;
            } else if (key == QLatin1String("shape")) {
                header.shape = readShape();
                haveShape = true;
            } else {
                failAt(m_origin, QStringLiteral("header has an unknown key '%1'").arg(key));
            }
            if (!peekIs(',')) {
                break;
            }
            expect(',');
        }
        expect('}');
        skipSpace();
        if (m_pos != m_text.size())
            failAt(m_origin, QStringLiteral("header has text after the dict at offset %1").arg(m_pos));
        if (!haveDescr || !haveOrder || !haveShape)
            failAt(m_origin, QStringLiteral("header lacks '%1'")
                                 .arg(!haveDescr   ? QStringLiteral("descr")
                                      : !haveOrder ? QStringLiteral("fortran_order")
                                                   : QStringLiteral("shape")));
        return header;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool peekIs(char c)
    {
        skipSpace();
        return m_pos < m_text.size() && m_text[m_pos] == c;
    }
    void expect(char c)
    {
        if (!peekIs(c))
            failAt(m_origin, QStringLiteral("header is not a valid dict: expected '%1' at offset %2")
                                 .arg(QLatin1Char(c))
                                 .arg(m_pos));
        ++m_pos;
    }
    QString readString()
    {
        skipSpace();
        if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"'))
            failAt(m_origin,
                   QStringLiteral("header is not a valid dict: expected a string at offset %1").arg(m_pos));
        const char quote = m_text[m_pos++];
        const qsizetype end = m_text.indexOf(quote, m_pos);
        if (end < 0)
            failAt(m_origin, QStringLiteral("header has an unterminated string at offset %1").arg(m_pos - 1));
        QString value = QString::fromUtf8(m_text.mid(m_pos, end - m_pos));
        m_pos = end + 1;
        return value;
    }
    bool readBool()
    {
        skipSpace();
        for (const auto &[word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            const qsizetype length = qsizetype(std::strlen(word));
            if (m_text.mid(m_pos, length) == word) {
                m_pos += length;
                return value;
            }
        }
        failAt(m_origin, QStringLiteral("header field 'fortran_order' must be True or False"));
    }
    std::int64_t readInteger()
    {
        skipSpace();
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
            ++m_pos;
        bool ok = false;
        const std::int64_t value = m_text.mid(start, m_pos - start).toLongLong(&ok);
        if (!ok)
            failAt(m_origin,
                   QStringLiteral("header field 'shape' must hold non-negative integers (offset %1)")
                       .arg(start));
        if (m_pos < m_text.size() && m_text[m_pos] == 'L') // Python 2 long
            ++m_pos;
        return value;
    }
    QList<std::int64_t> readShape()
    {
        QList<std::int64_t> shape;
        expect('(');
        while (!peekIs(')')) {
            shape << readInteger();
            if (!peekIs(','))
                break;
            expect(',');
        }
        expect(')');
        return shape;
    }

    const QByteArray &m_text;
    const QString &m_origin;
    qsizetype m_pos = 0;
};

} // namespace

std::int64_t NpyHeader::elements() const
{
    Checked n = 1;
    for (std::int64_t dim : shape)
        n *= dim;
    return n.value();
}

int NpyHeader::itemBytes() const
{
    bool ok = false;
    const int bytes = descr.mid(2).toInt(&ok);
    return ok && bytes > 0 ? bytes : 0;
}

NpyHeader parseNpyHeader(const QByteArray &bytes, std::int64_t fileSize, const QString &origin)
{
    if (bytes.size() < magicBytes + 2 || std::memcmp(bytes.constData(), magic, magicBytes) != 0)
        failAt(origin, QStringLiteral("not a .npy file (no \\x93NUMPY magic)"));
    const int major = uchar(bytes[6]);
    const int minor = uchar(bytes[7]);
    if (major < 1 || major > 3 || minor != 0)
        failAt(origin, QStringLiteral("unsupported .npy version %1.%2 (kvscope reads 1.0, 2.0 and 3.0)")
                           .arg(major)
                           .arg(minor));
    const int lengthBytes = major == 1 ? 2 : 4;
    const std::int64_t preamble = magicBytes + 2 + lengthBytes;
    if (bytes.size() < preamble)
        failAt(origin,
               QStringLiteral("file is %1 bytes, too short for the .npy header length").arg(fileSize));
    const auto *lengthField = reinterpret_cast<const uchar *>(bytes.constData() + 8);
    const std::int64_t length = major == 1 ? qFromLittleEndian<quint16>(lengthField)
                                           : std::int64_t(qFromLittleEndian<quint32>(lengthField));
    if (preamble + length > fileSize)
        failAt(origin, QStringLiteral("header length %1 runs past the end of the %2-byte file")
                           .arg(length)
                           .arg(fileSize));
    if (length > MaxNpyHeaderBytes)
        failAt(
            origin,
            QStringLiteral("header length %1 exceeds the %2-byte limit").arg(length).arg(MaxNpyHeaderBytes));
    if (bytes.size() < preamble + length)
        failAt(origin, QStringLiteral("header is truncated"));

    NpyHeader header = DictReader(bytes.mid(preamble, length), origin).read();
    header.majorVersion = major;
    header.minorVersion = minor;
    header.dataOffset = preamble + length;
    try {
        header.elements();
    } catch (const Error &) {
        failAt(origin, QStringLiteral("shape is too large"));
    }
    return header;
}

NpyFile NpyFile::open(const QString &path)
{
    NpyFile f;
    f.m_path = path;
    f.m_file = QSharedPointer<QFile>::create();
    openRegularFile(*f.m_file, path);
    const std::int64_t size = f.m_file->size();
    const QByteArray head = f.m_file->read(std::min<std::int64_t>(size, magicBytes + 6 + MaxNpyHeaderBytes));
    f.m_header = parseNpyHeader(head, size, path);

    const int item = f.m_header.itemBytes();
    if (item == 0)
        failAt(path, QStringLiteral("descr '%1' has no item size").arg(f.m_header.descr));
    std::int64_t needed = 0;
    try {
        needed = (Checked(f.m_header.elements()) * item).value();
    } catch (const Error &) {
        failAt(path, QStringLiteral("shape is too large"));
    }
    f.m_dataBytes = size - f.m_header.dataOffset;
    if (needed > f.m_dataBytes)
        failAt(path, QStringLiteral(
                         "data is truncated: shape x %1 needs %2 bytes, the file holds %3 after the header")
                         .arg(f.m_header.descr)
                         .arg(needed)
                         .arg(f.m_dataBytes));
    f.m_dataBytes = needed;
    if (needed > 0) {
        f.m_data = f.m_file->map(f.m_header.dataOffset, needed);
        if (!f.m_data)
            failAt(path, QStringLiteral("cannot memory-map the data: %1").arg(f.m_file->errorString()));
    }
    return f;
}

} // namespace kvscope

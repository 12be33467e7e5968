-- pandoc filter for libnbo-mpi(7): each table becomes a definition list
-- (the first cell of a row its term, each other cell a paragraph led by
-- its column's heading), since a man page's narrow table cells cannot
-- hold the long names of docs/pmpi.md.
function Table(t)
  local heads = {}
  for _, row in ipairs(t.head.rows) do
    for i, cell in ipairs(row.cells) do
      heads[i] = pandoc.utils.stringify(cell.contents)
    end
  end
  local items = {}
  for _, body in ipairs(t.bodies) do
    for _, row in ipairs(body.body) do
      local term = pandoc.utils.blocks_to_inlines(row.cells[1].contents)
      local def = {}
      for i = 2, #row.cells do
        local text = pandoc.utils.blocks_to_inlines(row.cells[i].contents)
        if heads[i] and heads[i] ~= '' then
          table.insert(text, 1, pandoc.Space())
          table.insert(text, 1, pandoc.Emph({pandoc.Str(heads[i] .. ':')}))
        end
        table.insert(def, pandoc.Para(text))
      end
      table.insert(items, {term, def})
    end
  end
  return pandoc.DefinitionList(items)
end

-- A comma-separated default (NBO_PMPI_MIN_SIZE's) is one word wider than
-- the page: groff may break it after each comma (\:, a break point that
-- prints nothing), and the page is set ragged-right (.na), since the
-- pieces of such a word leave no space to stretch.
function Code(c)
  if c.text:find(',') and c.text:match('^[%w_=,.]+$') then
    return pandoc.RawInline('man', '\\f[V]' .. c.text:gsub(',', ',\\:') .. '\\f[R]')
  end
end

function Pandoc(doc)
  table.insert(doc.blocks, 1, pandoc.RawBlock('man', '.na'))
  return doc
end

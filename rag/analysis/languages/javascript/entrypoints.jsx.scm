; React Router's routes written as JSX (JavaScript's and TSX's grammars only), in a file that imports react-router:
; <Route path="about" element={<About />} /> (its component the handler), under the paths of the <Route> elements
; around it
(jsx_self_closing_element name: (identifier) @_route
  attribute: (jsx_attribute (property_identifier) @_path (string) @path)
  attribute: (jsx_attribute (property_identifier) @_shows (jsx_expression (_) @element))
  (#eq? @_route "Route") (#eq? @_path "path") (#eq? @_shows "element")
  (#set! requires "client_router") (#set! when_used "react-router")) @route.client
(jsx_element
  open_tag: (jsx_opening_element name: (identifier) @_route
    attribute: (jsx_attribute (property_identifier) @_path (string) @path)
    attribute: (jsx_attribute (property_identifier) @_shows (jsx_expression (_) @element)))
  (#eq? @_route "Route") (#eq? @_path "path") (#eq? @_shows "element")
  (#set! requires "client_router") (#set! when_used "react-router")) @route.client
(jsx_element
  open_tag: (jsx_opening_element name: (identifier) @_route attribute: (jsx_attribute (property_identifier) @_path (string) @prefix))
  (#eq? @_route "Route") (#eq? @_path "path")) @prefixed
